import Foundation
import StratusModel
import StratusCloud

/// Decodes the field blobs of many records in a row (a playback page, a query page) for less
/// than one `FieldCoder.decode` each.
///
/// Records of one type nearly always carry the same keys, and the blob lists them in the same
/// (sorted) order. So the decoder remembers the key layouts it has seen for each shape (the
/// caller's grouping, the record type): the keys' bytes, their strings, and a dictionary that
/// already holds those keys. A record with a known layout then costs one byte comparison per
/// key and a copy of that dictionary, whose values it overwrites in place: no key string is
/// made, no key is hashed. Any other record takes the ordinary path and teaches the layout.
///
/// One decoder serves one batch on one thread; it is cheap to make.
final class FieldDecoder {
    private typealias Fields = [String: FieldValue]

    private final class Layout {
        /// The keys' UTF-8, one after the other, in the blob's order.
        let keyBytes: [UInt8]
        /// Where each key ends in `keyBytes`.
        let keyEnds: [Int]
        /// The keys, each with a placeholder value.
        let template: Fields
        /// Each key's position in `template`, in the blob's order.
        let slots: [Fields.Index]

        init?(keys: [String], fields: Fields) {
            guard keys.count == fields.count else { return nil } // a key repeated in the blob
            var bytes: [UInt8] = []
            var ends: [Int] = []
            ends.reserveCapacity(keys.count)
            for key in keys {
                bytes.append(contentsOf: key.utf8)
                ends.append(bytes.count)
            }
            var template = fields
            for index in template.values.indices { template.values[index] = .int64(0) }
            var slots: [Fields.Index] = []
            slots.reserveCapacity(keys.count)
            for key in keys {
                guard let slot = template.index(forKey: key) else { return nil }
                slots.append(slot)
            }
            keyBytes = bytes
            keyEnds = ends
            self.template = template
            self.slots = slots
        }

        /// The record's fields when its keys are exactly this layout's; nil when they are not
        /// (the reader is then left anywhere).
        func fill(from reader: inout UnsafeByteReader) throws -> Fields? {
            var fields = template
            let matched: Bool = try keyBytes.withUnsafeBytes { keys in
                var start = 0
                for slot in slots.indices {
                    let end = keyEnds[slot]
                    let key = try reader.take(try reader.length())
                    guard key.count == end - start else { return false }
                    if key.count > 0, memcmp(key.baseAddress!, keys.baseAddress! + start, key.count) != 0 { return false }
                    fields.values[slots[slot]] = try FieldCoder.readTagged(from: &reader)
                    start = end
                }
                return true
            }
            return matched ? fields : nil
        }
    }

    /// Layouts remembered per shape; a few, for types whose records differ in optional fields.
    private var layouts: [Int64: [Layout]] = [:]
    private var lastShape: Int64?
    private var lastLayouts: [Layout] = []
    private static let layoutsPerShape = 4

    init() {}

    /// Decodes one blob, in place. `shape` groups records likely to share keys: the record type.
    func decode(_ blob: UnsafeRawBufferPointer, shape: Int64) throws -> [String: FieldValue] {
        var reader = UnsafeByteReader(blob)
        let count = try FieldCoder.readHeader(from: &reader)
        if shape != lastShape {
            if let lastShape { layouts[lastShape] = lastLayouts }
            lastShape = shape
            lastLayouts = layouts[shape] ?? []
        }
        for (position, layout) in lastLayouts.enumerated() where layout.slots.count == count {
            var probe = reader
            if let fields = try layout.fill(from: &probe) {
                if position > 0 { lastLayouts.swapAt(position, position - 1) }
                return fields
            }
        }
        var keys: [String]? = []
        keys?.reserveCapacity(count)
        let fields = try FieldCoder.readEntries(count, from: &reader, keys: &keys)
        if let keys, let layout = Layout(keys: keys, fields: fields) {
            if lastLayouts.count == FieldDecoder.layoutsPerShape { lastLayouts.removeLast() }
            lastLayouts.insert(layout, at: 0)
        }
        return fields
    }

    func decode(_ blob: Data, shape: Int64) throws -> [String: FieldValue] {
        try blob.withUnsafeBytes { try decode($0, shape: shape) }
    }
}
