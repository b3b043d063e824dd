import Foundation
import StratusModel
import StratusCloud

/// Encodes a record's fields into the compact binary blob the `record` table stores.
///
/// Every type round-trips exactly (an INT64 stays 64-bit, a double keeps its bit pattern, a
/// timestamp its milliseconds), and decoding is a single forward pass, cheap enough for playback.
package enum FieldCoder {
    static let formatVersion: UInt8 = 1

    package static func encode(_ fields: [String: FieldValue]) -> Data {
        var writer = ByteWriter()
        // Room for a typical record's fields without growing the buffer step by step.
        writer.bytes.reserveCapacity(256)
        writer.byte(formatVersion)
        writer.varint(UInt64(fields.count))
        // In key order, the fields' places sorted where they lie: a sorted array of the fields
        // retained every key and value and freed them again; looking each key up again hashed it.
        withUnsafeTemporaryAllocation(of: [String: FieldValue].Index.self, capacity: fields.count) { order in
            for (place, index) in zip(order.indices, fields.indices) { order.initializeElement(at: place, to: index) }
            // By insertion: a record has few fields.
            let keys = fields.keys
            for next in order.indices.dropFirst() {
                let moving = order[next]
                var place = next
                while place > 0, keys[moving] < keys[order[place - 1]] {
                    order[place] = order[place - 1]
                    place -= 1
                }
                order[place] = moving
            }
            for index in order {
                writer.string(keys[index])
                writeTagged(fields.values[index], into: &writer)
            }
            order.baseAddress?.deinitialize(count: order.count)
        }
        return Data(writer.bytes)
    }

    package static func decode(_ data: Data) throws -> [String: FieldValue] {
        try data.withUnsafeBytes { try decode($0) }
    }

    /// Decodes a blob in place, for example while SQLite still holds it: nothing is copied.
    static func decode(_ blob: UnsafeRawBufferPointer) throws -> [String: FieldValue] {
        var reader = UnsafeByteReader(blob)
        let count = try readHeader(from: &reader)
        var keys: [String]?
        return try readEntries(count, from: &reader, keys: &keys)
    }

    /// Checks the format version and returns the number of fields that follow.
    static func readHeader(from reader: inout UnsafeByteReader) throws -> Int {
        guard try reader.byte() == formatVersion else { throw ByteReader.Failure.corrupt }
        // Every field takes at least two bytes (an empty key's length and a tag).
        let count = try reader.varint()
        guard count <= UInt64(reader.remaining / 2) else { throw ByteReader.Failure.corrupt }
        return Int(count)
    }

    /// Reads `count` fields; appends their keys, in the blob's order, to `keys` when it is not nil.
    static func readEntries(_ count: Int, from reader: inout UnsafeByteReader, keys: inout [String]?) throws -> [String: FieldValue] {
        var fields: [String: FieldValue] = Dictionary(minimumCapacity: count)
        for _ in 0..<count {
            let key = try reader.string()
            fields[key] = try readTagged(from: &reader)
            keys?.append(key)
        }
        return fields
    }

    /// Whether two values are stored as the same bytes: then they have the same index rows.
    /// Stricter than `==`, which takes a precomposed and a decomposed `é` as one string, and
    /// 0.0 as -0.0, where the index holds each value's own bytes.
    package static func storesAlike(_ a: FieldValue?, _ b: FieldValue?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        var first = ByteWriter(), second = ByteWriter()
        writeTagged(a, into: &first)
        writeTagged(b, into: &second)
        return first.bytes == second.bytes
    }

    /// Writes one tagged value (a cursor's sort key, a query argument).
    static func writeValue(_ value: FieldValue, into writer: inout ByteWriter) {
        writeTagged(value, into: &writer)
    }

    static func readValue(from reader: inout ByteReader) throws -> FieldValue {
        try reader.read { try readTagged(from: &$0) }
    }

    private static func tag(of base: FieldType.BaseType) -> UInt8 {
        switch base {
        case .string: return 0
        case .int64: return 1
        case .double: return 2
        case .timestamp: return 3
        case .bytes: return 4
        case .asset: return 5
        case .reference: return 6
        case .location: return 7
        }
    }

    private static func base(ofTag tag: UInt8) throws -> FieldType.BaseType {
        switch tag {
        case 0: return .string
        case 1: return .int64
        case 2: return .double
        case 3: return .timestamp
        case 4: return .bytes
        case 5: return .asset
        case 6: return .reference
        case 7: return .location
        default: throw ByteReader.Failure.corrupt
        }
    }

    private static let listFlag: UInt8 = 0x80

    private static func writeTagged(_ value: FieldValue, into writer: inout ByteWriter) {
        if case .list(let base, let items) = value {
            writer.byte(tag(of: base) | listFlag)
            writer.varint(UInt64(items.count))
            for item in items { writePayload(item, into: &writer) }
        } else {
            writer.byte(tag(of: value.type.base))
            writePayload(value, into: &writer)
        }
    }

    static func readTagged(from reader: inout UnsafeByteReader) throws -> FieldValue {
        let tagByte = try reader.byte()
        let base = try base(ofTag: tagByte & ~listFlag)
        if tagByte & listFlag != 0 {
            let count = try reader.length()
            var items: [FieldValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try readPayload(base, from: &reader)) }
            return .list(base, items)
        }
        return try readPayload(base, from: &reader)
    }

    /// Moves past one tagged value without making it: what a partial decode does with the
    /// fields it was not asked for.
    static func skipTagged(from reader: inout UnsafeByteReader) throws {
        let tagByte = try reader.byte()
        let base = try base(ofTag: tagByte & ~listFlag)
        let count = tagByte & listFlag != 0 ? try reader.length() : 1
        for _ in 0..<count { try skipPayload(base, from: &reader) }
    }

    private static func skipPayload(_ base: FieldType.BaseType, from reader: inout UnsafeByteReader) throws {
        switch base {
        case .string, .bytes: _ = try reader.take(try reader.length())
        case .int64, .timestamp: _ = try reader.signed()
        case .double: _ = try reader.fixed64()
        case .asset:
            _ = try reader.take(try reader.length())
            _ = try reader.signed()
        case .reference:
            _ = try reader.take(try reader.length())
            _ = try reader.byte()
        case .location:
            _ = try reader.take(16)
            let mask = try reader.byte()
            for bit in 0..<5 where mask & (1 << bit) != 0 { _ = try reader.fixed64() }
            if mask & (1 << 5) != 0 { _ = try reader.signed() }
        }
    }

    private static func writePayload(_ value: FieldValue, into writer: inout ByteWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .int64(let number): writer.signed(number)
        case .double(let number): writer.fixed64(number.bitPattern)
        case .timestamp(let date): writer.signed(FieldValue.milliseconds(date))
        case .bytes(let data):
            writer.varint(UInt64(data.count))
            writer.bytes.append(contentsOf: data)
        case .asset(let asset):
            writer.string(asset.fileChecksum)
            writer.signed(asset.size)
        case .reference(let reference):
            writer.string(reference.recordName)
            writer.byte(reference.action == .deleteSelf ? 1 : 0)
        case .location(let location):
            writer.fixed64(location.latitude.bitPattern)
            writer.fixed64(location.longitude.bitPattern)
            let optionals = [location.altitude, location.horizontalAccuracy, location.verticalAccuracy, location.course, location.speed]
            var mask: UInt8 = 0
            for (index, item) in optionals.enumerated() where item != nil { mask |= 1 << index }
            if location.timestamp != nil { mask |= 1 << 5 }
            writer.byte(mask)
            for item in optionals { if let item { writer.fixed64(item.bitPattern) } }
            if let time = location.timestamp { writer.signed(FieldValue.milliseconds(time)) }
        case .list:
            break // lists do not nest; writeTagged handles the outer list
        }
    }

    private static func readPayload(_ base: FieldType.BaseType, from reader: inout UnsafeByteReader) throws -> FieldValue {
        switch base {
        case .string: return .string(try reader.string())
        case .int64: return .int64(try reader.signed())
        case .double: return .double(Double(bitPattern: try reader.fixed64()))
        case .timestamp: return .timestamp(FieldValue.date(milliseconds: try reader.signed()))
        case .bytes: return .bytes(Data(try reader.take(try reader.length())))
        case .asset: return .asset(Asset(fileChecksum: try reader.string(), size: try reader.signed()))
        case .reference:
            let name = try reader.string()
            return .reference(Reference(recordName: name, action: try reader.byte() == 1 ? .deleteSelf : .none))
        case .location:
            var location = Location(latitude: Double(bitPattern: try reader.fixed64()),
                                    longitude: Double(bitPattern: try reader.fixed64()))
            let mask = try reader.byte()
            func optional(_ bit: Int) throws -> Double? {
                mask & (1 << bit) != 0 ? Double(bitPattern: try reader.fixed64()) : nil
            }
            location.altitude = try optional(0)
            location.horizontalAccuracy = try optional(1)
            location.verticalAccuracy = try optional(2)
            location.course = try optional(3)
            location.speed = try optional(4)
            if mask & (1 << 5) != 0 { location.timestamp = FieldValue.date(milliseconds: try reader.signed()) }
            return .location(location)
        }
    }
}
