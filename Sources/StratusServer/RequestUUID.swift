/// The `uuid` every CKWS answer carries: a random (version 4) UUID in lowercase, as iCloud
/// writes it. Made from the system's random generator (the `getrandom` call) rather than
/// Foundation's `UUID()`, which opens `/dev/urandom` for each one: on the server's busiest
/// requests that open cost more than the answer's JSON.
enum RequestUUID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 4122 variant
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
