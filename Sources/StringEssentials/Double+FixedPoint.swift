extension Double {
    /// The value in plain decimal notation with exactly `fractionDigits` digits after the point
    /// (`1.25` → `"1.3"` at one digit; halves round to even, as `printf("%.1f")` does for exact halves).
    ///
    /// Values beyond ±9.2e15 / 10^digits and non-finite values are spelled as `description` does.
    public func fixedPoint(fractionDigits: Int) -> String {
        precondition((0...9).contains(fractionDigits), "fixedPoint supports 0...9 fraction digits")
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let scaled = Self.roundedProduct(self, scale)
        guard scaled.isFinite, abs(scaled) < 9.2e15 else { return description }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        let divisor = UInt64(scale)
        let whole = String(magnitude / divisor)
        let sign = units < 0 ? "-" : ""
        guard fractionDigits > 0 else { return sign + whole }
        let fraction = String(magnitude % divisor)
        return sign + whole + "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
    }

    /// `value × scale` rounded to an integer as if computed exactly: when the rounded product lands
    /// on a half, the product's rounding error (exact through a fused multiply-add, `scale` being a
    /// power of ten that doubles hold exactly) says on which side the true product lies.
    private static func roundedProduct(_ value: Double, _ scale: Double) -> Double {
        let product = value * scale
        let error = (-product).addingProduct(value, scale)
        let nearest = product.rounded(.toNearestOrEven)
        guard abs(product - nearest) == 0.5, error != 0 else { return nearest }
        return error > 0 ? product.rounded(.up) : product.rounded(.down)
    }
}
