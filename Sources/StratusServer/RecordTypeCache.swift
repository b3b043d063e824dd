import Synchronization
import StratusEngine
import StratusModel

/// The record types one request meets, all from one read of the store: decoding a modify's
/// records and encoding a page of results ask for the same few types again and again, and the
/// read that checked the request's environment already holds them.
final class RecordTypeCache: Sendable {
    /// A type as the request uses it: its schema, and the fields it declares `ENCRYPTED`.
    private struct Entry: Sendable {
        var schema: RecordTypeSchema?
        var encrypted: Set<String>
    }

    private let store: Store
    /// The store's types as the request first read them (nil: not read yet, or unreadable).
    private let catalog: Mutex<SchemaCatalog?>
    private let types = Mutex<[String: Entry]>([:])

    /// `catalog`: the types the request has read already (its environment check's read).
    init(store: Store, catalog: SchemaCatalog? = nil) {
        self.store = store
        self.catalog = Mutex(catalog)
    }

    /// The type's schema; nil when the store has no such type (or cannot be read now).
    func schema(named name: String) -> RecordTypeSchema? { entry(name).schema }

    /// The fields of the type declared `ENCRYPTED`, which Web Services marks `isEncrypted`.
    func encryptedFields(of name: String) -> Set<String> { entry(name).encrypted }

    private func entry(_ name: String) -> Entry {
        if let known = types.withLock({ $0[name] }) { return known }
        let schema = loadedCatalog()?.type(named: name)?.schema
        let entry = Entry(schema: schema, encrypted: Set(schema?.fields.values.lazy.filter(\.isEncrypted).map(\.name) ?? []))
        types.withLock { $0[name] = entry }
        return entry
    }

    private func loadedCatalog() -> SchemaCatalog? {
        if let known = catalog.withLock({ $0 }) { return known }
        let loaded = try? store.currentCatalog()
        catalog.withLock { $0 = loaded }
        return loaded
    }
}
