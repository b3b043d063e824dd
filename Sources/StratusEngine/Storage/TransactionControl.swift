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

    /// Brings the query planner's statistics of the record tables up to date after a bulk
    /// write filled them. A planner without statistics (PostgreSQL's, until autovacuum gets
    /// to the tables a minute or more later) plans the first queries blind, several times
    /// slower; one that needs none does nothing.
    func gatherPlannerStatistics() throws
}
