extension BinaryInteger {
    /// The number in decimal, left-padded with zeros to `width` digits (`7` → `"07"`), as
    /// `printf("%0*d")` writes it; a minus sign comes before the zeros.
    public func zeroPadded(width: Int) -> String {
        let digits = String(magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count - (self < 0 ? 1 : 0)))
        return (self < 0 ? "-" : "") + padding + digits
    }
}
