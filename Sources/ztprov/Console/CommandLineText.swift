import Provisioning

#if canImport(Glibc)
    import Glibc
#endif

/// Every argument must be exactly the text the user meant: SSIDs, names and paths go to devices and
/// files byte for byte, and Swift would otherwise repair invalid UTF-8 into U+FFFD without a word.
///
/// Messages give the argument's position, never its text: it might be a secret typed in the wrong place.
enum CommandLineText {
    /// Refuses an argument of the process whose bytes are not UTF-8.
    static func checkRawArguments() throws(ProvisioningError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            guard String(validating: bytes, as: UTF8.self) != nil else { throw notText(position: index) }
        }
    }

    /// Refuses an argument (from the command line or a station profile) that holds a NUL.
    static func check(_ arguments: [String]) throws(ProvisioningError) {
        if let index = arguments.firstIndex(where: { $0.unicodeScalars.contains("\0") }) {
            throw notText(position: index + 1)
        }
    }

    private static func notText(position: Int) -> ProvisioningError {
        ProvisioningError(
            .invalidOption, "Argument \(position) is not valid UTF-8 text or holds a NUL byte.",
            hint: "SSIDs, names and paths must be UTF-8 text; check the command line and the station profile.")
    }
}
