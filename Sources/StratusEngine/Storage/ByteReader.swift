import Foundation

/// Reads what `ByteWriter` wrote, refusing truncated or malformed input instead of trapping.
struct ByteReader {
    enum Failure: Error { case corrupt }

    private let bytes: [UInt8]
    private var position = 0

    init(_ data: Data) { bytes = [UInt8](data) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }
    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw Failure.corrupt }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Failure.corrupt }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Failure.corrupt }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func signed() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func fixed64() throws -> UInt64 {
        var value: UInt64 = 0
        for (index, next) in try take(8).enumerated() { value |= UInt64(next) << UInt64(index * 8) }
        return value
    }

    mutating func string() throws -> String {
        let count = try varint()
        guard count <= UInt64(remaining) else { throw Failure.corrupt }
        let slice = try take(Int(count))
        return slice.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
}
