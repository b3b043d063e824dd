import Foundation
import StratusCloud

/// Reads what `ByteWriter` wrote, refusing truncated or malformed input instead of trapping.
package struct ByteReader {
    package enum Failure: Error { case corrupt }

    private let bytes: [UInt8]
    private var position = 0

    init(_ data: Data) { bytes = [UInt8](data) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }
    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() throws -> UInt8 { try read { try $0.byte() } }
    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Failure.corrupt }
        defer { position += count }
        return bytes[position..<position + count]
    }
    mutating func varint() throws -> UInt64 { try read { try $0.varint() } }
    mutating func signed() throws -> Int64 { try read { try $0.signed() } }
    mutating func fixed64() throws -> UInt64 { try read { try $0.fixed64() } }
    mutating func string() throws -> String { try read { try $0.string() } }

    /// Runs `body` on the unread bytes and moves past what it consumed (nothing if it throws).
    mutating func read<T>(_ body: (inout UnsafeByteReader) throws -> T) throws -> T {
        let start = position
        let (result, consumed) = try bytes.withUnsafeBytes { all in
            var reader = UnsafeByteReader(UnsafeRawBufferPointer(rebasing: all[start...]))
            let result = try body(&reader)
            return (result, reader.position)
        }
        position = start + consumed
        return result
    }
}

/// The same reads as `ByteReader` straight over borrowed memory (a blob SQLite still owns, a
/// `Data`'s bytes), with no copy. Valid only while that memory is: never store one.
struct UnsafeByteReader {
    private let base: UnsafeRawPointer?
    private let count: Int
    private(set) var position = 0

    init(_ buffer: UnsafeRawBufferPointer) {
        base = buffer.baseAddress
        count = buffer.count
    }

    var remaining: Int { count - position }
    var isAtEnd: Bool { position == count }

    @inline(__always)
    mutating func byte() throws -> UInt8 {
        guard position < count, let base else { throw ByteReader.Failure.corrupt }
        defer { position += 1 }
        return base.load(fromByteOffset: position, as: UInt8.self)
    }

    /// The next `length` bytes, borrowed like the reader's memory.
    @inline(__always)
    mutating func take(_ length: Int) throws -> UnsafeRawBufferPointer {
        guard length >= 0, length <= remaining else { throw ByteReader.Failure.corrupt }
        guard length > 0, let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        defer { position += length }
        return UnsafeRawBufferPointer(start: base + position, count: length)
    }

    @inline(__always)
    mutating func varint() throws -> UInt64 {
        let first = try byte()
        if first & 0x80 == 0 { return UInt64(first) }
        var result = UInt64(first & 0x7F)
        var shift: UInt64 = 7
        while true {
            let next = try byte()
            guard shift < 64 else { throw ByteReader.Failure.corrupt }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A varint that must fit the bytes left: a length or a count of things still to read.
    @inline(__always)
    mutating func length() throws -> Int {
        let value = try varint()
        guard value <= UInt64(remaining) else { throw ByteReader.Failure.corrupt }
        return Int(value)
    }

    @inline(__always)
    mutating func signed() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    @inline(__always)
    mutating func fixed64() throws -> UInt64 {
        guard remaining >= 8, let base else { throw ByteReader.Failure.corrupt }
        defer { position += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    mutating func string() throws -> String {
        String(decoding: try take(try length()), as: UTF8.self)
    }
}
