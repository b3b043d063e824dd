import Foundation

/// The fields a partial decode keeps (see ``FieldCoder/decode(_:only:)``), with their keys'
/// UTF-8 at hand so a blob's keys are compared as bytes, not made into strings.
struct WantedFields: Sendable {
    let names: [String]
    private let keys: [[UInt8]]

    init(_ names: some Sequence<String>) {
        self.names = Array(Set(names)).sorted()
        keys = self.names.map { Array($0.utf8) }
    }

    /// The index in ``names`` of the key whose UTF-8 is `bytes`.
    func index(of bytes: UnsafeRawBufferPointer) -> Int? {
        keys.firstIndex { key in
            key.count == bytes.count && (key.isEmpty || key.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, key.count) == 0 })
        }
    }
}
