import StratusCloud

/// Record change tags.
package enum ChangeTag {
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// A short random tag, as CloudKit's look: ten lower-case letters and digits.
    ///
    /// One 64-bit draw from the system's generator gives all ten (36^10 is under 2^52): a
    /// draw is a system call, and a bulk save makes a tag per record.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = generator.next()
        var digits = [UInt8](repeating: 0, count: 10)
        for index in digits.indices {
            digits[index] = alphabet[Int(bits % 36)]
            bits /= 36
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
