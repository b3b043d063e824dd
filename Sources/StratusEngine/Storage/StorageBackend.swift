import StratusCloud

/// Where a ``Store`` keeps its data: a backend opened at a location (an SQLite file today),
/// handing out transactions. Modelled on GRDB's `DatabaseReader` and `DatabaseWriter`: reads
/// and writes are closures that receive a ``StoreTransaction``.
///
/// The engine never names a backend; `StratusSQLite` implements this and opens a `Store` on it.
package protocol StorageBackend: Sendable {
    /// Where the store lives, as it was named when opened.
    var location: String { get }
    /// The store's info as it was opened (its identity and owner never change).
    var info: StoreInfo { get }
    /// True when the store could only be opened for reading; every write then fails with
    /// `permissionFailure`, saying why.
    var isReadOnly: Bool { get }

    /// Runs `body` in a read transaction.
    func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T

    /// Runs `body` in a write transaction, committed when it returns and rolled back when it throws.
    func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T

    /// Runs `body` on the writer outside a transaction, for a caller that begins and commits as
    /// it goes (``StoreTransaction/control``).
    func writeWithoutTransaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T

    /// Runs a bulk write that commits as it goes, telling it whether its writes go straight
    /// into an empty store no one else has open (a backend that cannot do that says false).
    func writingInPlaceWhenEmpty<T>(_ body: (_ inPlace: Bool) throws -> T) throws -> T

    /// Reads another store of this backend at `location` without opening it as a store:
    /// nothing in it is written (no upgrade), so comparing with, say, the production store
    /// leaves it as it was.
    func readWithoutOpening<T>(_ location: String, _ body: (StoreTransaction) throws -> T) throws -> T
}
