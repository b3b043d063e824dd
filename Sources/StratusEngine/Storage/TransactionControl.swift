/// A writer's hold on its transactions, for a bulk write that begins and commits as it goes
/// (``Store/writeWithoutTransaction(_:)``).
package protocol TransactionControl {
    /// Whether a transaction is open.
    var isInsideTransaction: Bool { get }

    func beginTransaction() throws

    func commit() throws

    func rollback() throws

    /// Readies the writer for a bulk write: an import (`importing`), or a bulk fill whose
    /// transactions rewrite the pages the last one wrote (a backend may, say, grow its cache).
    func prepareForBulkWrite(importing: Bool) throws
}
