import Synchronization
import StratusEngine
import StratusModel

/// The record types one request meets, each read from the store once: decoding a modify's
/// records and encoding a page of results ask for the same few types again and again.
final class RecordTypeCache: Sendable {
    private let store: Store
    private let types = Mutex<[String: RecordTypeSchema?]>([:])

    init(store: Store) { self.store = store }

    /// The type's schema; nil when the store has no such type (or cannot be read now).
    func schema(named name: String) -> RecordTypeSchema? {
        if let known = types.withLock({ $0[name] }) { return known }
        let schema = try? store.recordType(named: name)
        types.withLock { $0[name] = schema }
        return schema
    }

    /// The fields of the type declared `ENCRYPTED`, which Web Services marks `isEncrypted`.
    func encryptedFields(of name: String) -> Set<String> {
        guard let schema = schema(named: name) else { return [] }
        return Set(schema.fields.values.lazy.filter(\.isEncrypted).map(\.name))
    }
}
