import Synchronization
import StratusEngine
import StratusModel

/// The record types one request meets, each read from the store once: decoding a modify's
/// records and encoding a page of results ask for the same few types again and again.
final class RecordTypeCache: Sendable {
    /// A type as the request uses it: its schema, and the fields it declares `ENCRYPTED`.
    private struct Entry: Sendable {
        var schema: RecordTypeSchema?
        var encrypted: Set<String>
    }

    private let store: Store
    private let types = Mutex<[String: Entry]>([:])

    init(store: Store) { self.store = store }

    /// The type's schema; nil when the store has no such type (or cannot be read now).
    func schema(named name: String) -> RecordTypeSchema? { entry(name).schema }

    /// The fields of the type declared `ENCRYPTED`, which Web Services marks `isEncrypted`.
    func encryptedFields(of name: String) -> Set<String> { entry(name).encrypted }

    private func entry(_ name: String) -> Entry {
        if let known = types.withLock({ $0[name] }) { return known }
        let schema = try? store.recordType(named: name)
        let entry = Entry(schema: schema, encrypted: Set(schema?.fields.values.lazy.filter(\.isEncrypted).map(\.name) ?? []))
        types.withLock { $0[name] = entry }
        return entry
    }
}
