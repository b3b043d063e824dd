/// Every table of a store row by row, as ``CopiedTable`` names its columns: what
/// ``Store/copy(to:progress:)`` reads from one store and writes into another, whatever their
/// backends. A backend maps its own table and column names and types onto these (a flag kept
/// as a boolean, a list kept as an array) and nothing else leaves it.
package protocol TableCopyStorage {
    /// How many rows `table` holds.
    func count(_ table: CopiedTable) throws -> Int

    /// Hands `body` every row of `table` in key order, its cells in ``CopiedTable/columns``
    /// order, without holding the whole table in memory.
    func forEachRow(of table: CopiedTable, _ body: ([CopiedValue]) throws -> Void) throws

    /// Inserts `rows` into `table` exactly as given (row ids and sequences included).
    /// ``CopiedTable/record`` is not written here: records go through the record storage's
    /// bulk inserter and indexer, which write their index rows too.
    func insert(_ rows: [[CopiedValue]], into table: CopiedTable) throws

    /// Removes every row of every table, index rows included: the first step of a copy into
    /// a store that holds nothing yet but its first rows.
    func removeAllRows() throws

    /// Once every row is in: whatever hands out new row ids continues after the copied ones.
    func finishCopy() throws
}
