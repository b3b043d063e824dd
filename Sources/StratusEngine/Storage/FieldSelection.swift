import Foundation
import StratusModel

/// The few fields a scan needs from each of many records (a query's residual terms and its
/// sorts), decoded from the blob in place while the others are skipped unmade. A page picked
/// out of a few thousand rows then pays for two fields of each, not for whole records.
struct FieldSelection: Sendable {
    /// The field names, each once.
    let names: [String]
    private let keys: [[UInt8]]

    init(_ names: some Sequence<String>) {
        self.names = Array(Set(names)).sorted()
        keys = self.names.map { Array($0.utf8) }
    }

    /// The selected fields' values in the order of ``names``, nil where the blob lacks one.
    func decode(_ blob: UnsafeRawBufferPointer) throws -> [FieldValue?] {
        var values: [FieldValue?] = []
        try decode(blob, into: &values)
        return values
    }

    /// As ``decode(_:)``, into `values` (overwritten): a scan reuses one array for every row.
    func decode(_ blob: UnsafeRawBufferPointer, into values: inout [FieldValue?]) throws {
        if values.count != names.count {
            values = [FieldValue?](repeating: nil, count: names.count)
        } else {
            for index in values.indices { values[index] = nil }
        }
        var reader = UnsafeByteReader(blob)
        let count = try FieldCoder.readHeader(from: &reader)
        var found = 0
        for _ in 0..<count where found < names.count {
            let key = try reader.take(try reader.length())
            if let index = index(of: key) {
                values[index] = try FieldCoder.readTagged(from: &reader)
                found += 1
            } else {
                try FieldCoder.skipTagged(from: &reader)
            }
        }
    }

    /// The selected field named by `key`'s bytes: a length check, then `memcmp` (a generic
    /// byte-by-byte comparison took a third of a partial decode).
    private func index(of key: UnsafeRawBufferPointer) -> Int? {
        for (index, name) in keys.enumerated() where name.count == key.count {
            let same = name.withUnsafeBytes { bytes in
                key.count == 0 || memcmp(bytes.baseAddress!, key.baseAddress!, key.count) == 0
            }
            if same { return index }
        }
        return nil
    }
}
