/// The `recordChangeTag` a write gives a record.
enum ChangeTag {
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")

    /// A short random tag, as CloudKit's look: ten lower-case letters and digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
