import Foundation
import StratusCloud
import StratusEngine

/// Everything a memory store holds, as one value: a write transaction works on a copy of it and
/// the backend keeps the copy only when the transaction commits, so a reader always sees a whole
/// committed state and a failed write leaves nothing behind. Dictionaries copy on write, so
/// taking a snapshot costs nothing until a table is changed.
///
/// The tables hold what the engine reads and writes, and no index rows: a memory store answers
/// a query by indexing the zone's records of that type as the query starts
/// (``MemoryQueryStorage``), under the schema as it is then, so there is nothing to keep in step.
struct MemoryTables {
    // MARK: Store

    var info: StoreInfo?
    /// Which commit made this state (they are numbered from 1).
    var commit: Int64 = 0
    var schemaVersion: Int64 = 0
    /// Each database's change feed position.
    var databaseSequences: [DatabaseScope: Int64] = [:]

    // MARK: Zones and records

    var zones: [Int64: Zone] = [:]
    var zoneIDs: [ZoneKey: Int64] = [:]
    var lastZoneID: Int64 = 0
    var records: [Int64: Record] = [:]
    /// Record row ids by zone, then name.
    var recordNames: [Int64: [String: Int64]] = [:]
    var lastRecordID: Int64 = 0
    /// Deletions by zone, then name.
    var tombstones: [Int64: [String: ChangeFeedDeletion]] = [:]

    // MARK: Schema

    var types: [Int64: RecordType] = [:]
    var lastTypeID: Int64 = 0
    var fields: [Int64: Field] = [:]
    var lastFieldID: Int64 = 0
    var grants: [Int64: [(permissions: String, role: String)]] = [:]
    var roles: Set<String> = []

    // MARK: Users, shares, subscriptions

    var users: [String: User] = [:]
    var shares: [Int64: Share] = [:]
    var lastShareID: Int64 = 0
    /// Participants by share, then user.
    var participants: [Int64: [String: ShareRows.ParticipantRow]] = [:]
    var subscriptions: [Int64: Subscription] = [:]
    var lastSubscriptionID: Int64 = 0
    var subscriptionVersion: Int64 = 0
    /// In sequence order.
    var notifications: [Notification] = []
    var lastNotificationSequence: Int64 = 0

    // MARK: Faults, assets, server

    var faults: [(fault: Fault, spent: Bool)] = []
    var lastFaultID: Int64 = 0
    var faultEvents: [FaultEvent] = []
    var lastFaultEventID: Int64 = 0
    var assets: [String: Data] = [:]
    var credentials: [Credential] = []
    var serverKeys: [ServerKey] = []
    var requestLog: [RequestLogEntry] = []
    var requestBodies: [Int64: RequestBodies] = [:]
    var lastRequestLogID: Int64 = 0
    var pushTokens: [String: PushToken] = [:]
}
