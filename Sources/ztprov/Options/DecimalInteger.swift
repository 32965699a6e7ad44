import ArgumentParser

/// A whole number as people write it: decimal digits only.
///
/// ArgumentParser's integer parsing (`Int(_:)`) also takes a sign (`+5`, `-0`); every integer option
/// parses through this, as every seconds option parses through ``DecimalSeconds``, so numbers are read
/// one way everywhere. Ranges are each option's own check.
enum DecimalInteger {
    static func parse<Number: FixedWidthInteger>(_ text: String) throws -> Number {
        guard (1...20).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = Number(text)
        else {
            throw ValidationError("A whole number is written in decimal digits only, such as 3.")
        }
        return value
    }
}
