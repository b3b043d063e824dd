import StratusModel
import StratusCloud

/// A record's full-text tokens, made before its write (``PreparedRecord``, on the import's
/// reading thread): every string field's tokens in one UTF-8 buffer, each after a
/// ``TextTokenizer/separator``, with each field's stretch of it.
///
/// Kept as bytes because the full-text row is bytes: an array of strings per field cost a
/// string per word and a dictionary per record, only to be taken apart again by the writer.
package struct FieldTokens: Sendable {
    private var bytes: [UInt8] = []
    /// Few fields per record: found by a look along the list, no hashing.
    private var fields: [(name: String, range: Range<Int>)] = []

    /// The tokens of each string field of `fields` (normalized, as they are stored).
    init(_ fields: [String: FieldValue]) {
        for (name, value) in fields where value.type.base == .string {
            // 256 bytes reserved up front: most records' words fit without growing the buffer.
            if bytes.capacity == 0 { bytes.reserveCapacity(256) }
            let start = bytes.count
            TextTokenizer.appendTokens(of: value, to: &bytes)
            self.fields.append((name, start..<bytes.count))
        }
    }

    /// The full-text row of every string field's words, each behind `prefix` (its zone and
    /// type, ``FieldTokens/scopedToken(_:zoneRowID:typeID:)``), in the fields' order: what
    /// the SQLite indexer writes when every string field is SEARCHABLE.
    func scopedText(prefix: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { all in
            // Written in place into a row sized once (appending token by token checked and grew
            // the array each time). At most one more token than separators, each with a prefix
            // and a space: an upper bound, whatever the bytes.
            guard let source = all.baseAddress else { return [] }
            var separators = 0
            for byte in all where byte == TextTokenizer.separator { separators += 1 }
            let bound = all.count + 1 + (separators + 1) * prefix.count
            return prefix.withUnsafeBufferPointer { prefix in
                [UInt8](unsafeUninitializedCapacity: bound) { row, written in
                    guard let first = row.baseAddress else { return }
                    var out = first
                    var start = 0
                    for index in 0...all.count where index == all.count || all[index] == TextTokenizer.separator {
                        if index > start {
                            if out != first {
                                out.initialize(to: UInt8(ascii: " "))
                                out += 1
                            }
                            if let prefixStart = prefix.baseAddress {
                                out.initialize(from: prefixStart, count: prefix.count)
                                out += prefix.count
                            }
                            out.initialize(from: source + start, count: index - start)
                            out += index - start
                        }
                        start = index + 1
                    }
                    written = out - first
                }
            }
        }
    }

    /// Hands each token of field `name` to `body`; false, handing none, when this record's
    /// tokens do not include that field.
    func forEachToken(of name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard let range = fields.first(where: { $0.name == name })?.range else { return false }
        bytes.withUnsafeBufferPointer { all in
            // Each token follows one separator and holds none.
            var start = range.lowerBound + 1
            var index = start
            while index <= range.upperBound {
                if index == range.upperBound || all[index] == TextTokenizer.separator {
                    if index > start { body(UnsafeBufferPointer(rebasing: all[start..<index])) }
                    start = index + 1
                }
                index += 1
            }
        }
        return true
    }

    /// Hands each token of `value`, field `name`, to `body`: from `known` when it holds them,
    /// else tokenized now (a save, which has nothing prepared).
    package static func forEachToken(of value: FieldValue, named name: String, known: FieldTokens?, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let known, known.forEachToken(of: name, body) { return }
        TextTokenizer.forEachToken(of: value, body)
    }
}

extension FieldTokens {
    /// A full-text token as indexed: the folded word behind a prefix naming the zone and record
    /// type (`z4t2xharbour`), so a search reads only its own zone and type's postings.
    package static func scopedToken(_ token: String, zoneRowID: Int64, typeID: Int64) -> String { "z\(zoneRowID)t\(typeID)x\(token)" }
}
