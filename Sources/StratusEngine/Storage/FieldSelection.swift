import Foundation
import StratusModel
import StratusCloud

/// The few fields a scan needs from each of many records (a query's residual terms and its
/// sorts), found in the blob in place while the others are skipped unmade. A page picked out of
/// a few thousand rows then pays for two fields of each, not for whole records; and the sort
/// values (a title, a string to allocate) only of the rows the filter keeps.
package struct FieldSelection: Sendable {
    /// The field names, each once.
    let names: [String]
    /// Where in ``names`` the fields the filter reads are: decoded first, so a row the filter
    /// turns down costs no more.
    let filterFields: [Int]
    /// Where in ``names`` the fields only the sorts read are: decoded once a row matches.
    let sortOnlyFields: [Int]
    private let keys: [[UInt8]]

    init(filter: some Sequence<String>, sorts: some Sequence<String>) {
        let filterNames = Set(filter)
        let names = filterNames.union(sorts).sorted()
        self.names = names
        keys = names.map { Array($0.utf8) }
        filterFields = names.indices.filter { filterNames.contains(names[$0]) }
        sortOnlyFields = names.indices.filter { !filterNames.contains(names[$0]) }
    }

    /// Finds where each selected field's value starts in `blob`, checking the shape of every
    /// field on the way; `starts` is the array to reuse, so a scan allocates nothing per row.
    package func locate(_ blob: UnsafeRawBufferPointer, reusing starts: inout [Int]) throws -> Located {
        if starts.count != names.count {
            starts = [Int](repeating: -1, count: names.count)
        } else {
            for index in starts.indices { starts[index] = -1 }
        }
        var reader = UnsafeByteReader(blob)
        let count = try FieldCoder.readHeader(from: &reader)
        var found = 0
        for _ in 0..<count where found < names.count {
            let key = try reader.take(try reader.length())
            if let index = index(of: key) {
                starts[index] = reader.position
                found += 1
            }
            try FieldCoder.skipTagged(from: &reader)
        }
        return Located(blob: blob, starts: starts)
    }

    /// One row's blob and where its selected fields start (-1 where absent). It borrows the
    /// blob: it is valid only while SQLite (or the caller) holds it.
    package struct Located {
        let blob: UnsafeRawBufferPointer
        let starts: [Int]

        /// Decodes the fields at `fields` (indices into the selection's ``names``) into `values`,
        /// nil where the row lacks one; the other entries of `values` are left as they are.
        func decode(_ fields: [Int], into values: inout [FieldValue?]) throws {
            for index in fields {
                guard starts[index] >= 0 else {
                    values[index] = nil
                    continue
                }
                var reader = UnsafeByteReader(blob)
                _ = try reader.take(starts[index])
                values[index] = try FieldCoder.readTagged(from: &reader)
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
