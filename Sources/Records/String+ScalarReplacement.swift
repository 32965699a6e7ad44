extension String {
    /// The text with each Unicode scalar that `replacement` gives text for replaced by that text; the
    /// escapers of the page and of the metrics differ only in their replacements.
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
