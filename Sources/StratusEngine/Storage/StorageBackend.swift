import Foundation
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

    /// Whether the fault plan may hold an armed fault: asked before every call, so it must be
    /// cheap, and true in every process once any process arms one.
    var faultPlanMayBeArmed: Bool { get }

    /// Whether a read transaction answers ``FaultStorage/anyArmed()`` from the statement that
    /// opens it, at no cost of its own: read calls then ask the plan inside their read instead
    /// of before it (``CloudDatabase/readAfterFaults(_:_:)``).
    var readsKnowFaultPlan: Bool { get }

    /// Records whether the plan holds an armed fault (`armed` reads it), for
    /// ``faultPlanMayBeArmed`` in every process; a backend that asks the plan itself never reads it.
    func setFaultPlanArmed(_ armed: () throws -> Bool) throws

    /// Announcements of other processes' commits, for live views; nil where the backend has
    /// none and live views poll.
    var announcements: (any StoreAnnouncements)? { get }

    /// Brings the query planner's statistics of the record tables up to date after a bulk
    /// write filled them, outside any transaction. A planner without statistics
    /// (PostgreSQL's, until autovacuum gets to the tables a minute or more later) plans the
    /// first queries blind, several times slower.
    func gatherPlannerStatistics() throws
}

extension StorageBackend {
    /// A file is polled: SQLite tells no other process about a commit.
    package var announcements: (any StoreAnnouncements)? { nil }

    /// Nothing to gather: a file's queries are planned from its indexes alone.
    package func gatherPlannerStatistics() throws {}

    /// A file's backends keep the answer in a marker file beside the store: a `stat`, where even
    /// the smallest read of the store costs tens of microseconds (a fifth of a fetch of 100
    /// records).
    package var faultPlanMayBeArmed: Bool { FileManager.default.fileExists(atPath: faultMarkerPath) }

    /// A file's marker answers before any read, for less than a read costs.
    package var readsKnowFaultPlan: Bool { false }

    package func setFaultPlanArmed(_ isArmed: () throws -> Bool) throws {
        let armed = try isArmed()
        let present = FileManager.default.fileExists(atPath: faultMarkerPath)
        if armed && !present {
            guard FileManager.default.createFile(atPath: faultMarkerPath, contents: Data()) else {
                throw CloudKitError(.internalError, "Cannot write \(faultMarkerPath), the marker that tells other processes the fault plan is armed.")
            }
        } else if !armed && present {
            try? FileManager.default.removeItem(atPath: faultMarkerPath)
        }
    }

    /// The file whose presence says the plan has an armed fault.
    var faultMarkerPath: String { location + "-faults" }
}
