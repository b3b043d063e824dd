/// What one transaction has read and keeps for the rest of it (``StoreTransaction/memo``).
/// A transaction runs on one thread at a time, so it needs no lock.
final class TransactionMemo {
    /// The schema catalog as this transaction saw it.
    var catalog: SchemaCatalog?

    func forget() { catalog = nil }
}
