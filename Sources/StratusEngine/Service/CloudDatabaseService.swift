import Foundation
import StratusCloud
import StratusModel
import StratusPredicates

/// One database of a container (public, private or shared) as one user reaches it, in
/// `CKDatabase`'s words: what a front end (the dashboard, and with remote mode the command
/// line) calls, whether the container is a local store or a CloudKit Web Services endpoint.
///
/// The engine's ``CloudDatabase`` is the local implementation. Requirements spell out every
/// parameter; the extension below gives the defaults callers leave out.
public protocol CloudDatabaseService: Sendable {
    /// Which database this is.
    var scope: DatabaseScope { get }
    /// This database with the store's fault plan switched off: for a front end's own reads
    /// around a call it makes (undo's check, the record before a save), which a fault armed
    /// for the clients under test must not fail.
    var withoutFaults: Self { get }

    // MARK: Zones

    func allRecordZones() throws -> [RecordZone]
    func modifyRecordZones(saving: [ZoneID], deleting: [ZoneID], purging: Bool) throws
    /// How many records of each type a zone holds (what the type picker shows).
    func recordCountsByType(inZoneWith zoneID: ZoneID) throws -> [String: Int]

    // MARK: Records

    func records(for recordIDs: [RecordID], desiredKeys: [String]?, progress: ((RecordID, Double) -> Void)?) throws -> [FetchedRecord]
    func record(for recordID: RecordID, desiredKeys: [String]?) throws -> Record
    func modifyRecords(saving: [Record], deleting: [RecordID], savePolicy: RecordSavePolicy, atomically: Bool) throws -> ModifyRecordsResult
    @discardableResult
    func save(_ record: Record) throws -> Record
    func deleteRecord(withID recordID: RecordID) throws

    // MARK: Queries

    func records(matching query: Query, inZoneWith zoneID: ZoneID, desiredKeys: [String]?, resultsLimit: Int?) throws -> QueryResultsPage
    func records(continuingMatchFrom cursor: String, desiredKeys: [String]?, resultsLimit: Int?) throws -> QueryResultsPage
    /// The last `resultsLimit` records of the whole result, in its order.
    func lastRecords(matching query: Query, inZoneWith zoneID: ZoneID, desiredKeys: [String]?, resultsLimit: Int?) throws -> [Record]
    /// Checks a predicate against the schema and CloudKit's rules without running it.
    func analyze(_ query: Query, now: Date) throws -> PredicateAnalysis
    /// How many records the query matches when the container can count them without reading
    /// them (an index answers the whole filter); nil when only walking the result can tell.
    func indexedCount(matching query: Query, inZoneWith zoneID: ZoneID) throws -> Int?

    // MARK: Changes

    func recordZoneChanges(inZoneWith zoneID: ZoneID, since token: String?, until endToken: String?, desiredKeys: [String]?,
                           resultsLimit: Int?, includingChangedKeys: Bool) throws -> ZoneChangesPage
    func databaseChanges(since token: String?, resultsLimit: Int?) throws -> DatabaseChangesPage
    func currentToken(for zoneID: ZoneID) throws -> String
    func currentDatabaseToken() throws -> String

    // MARK: Subscriptions and notifications

    func allSubscriptions() throws -> [Subscription]
    @discardableResult
    func save(_ subscription: Subscription) throws -> Subscription
    func deleteSubscription(withID subscriptionID: String) throws
    func notifications(afterSequence sequence: Int64, limit: Int?, unreadOnly: Bool, includingOwnDevice: Bool) throws -> [CloudNotification]

    // MARK: Sharing

    func shares() throws -> (owned: [Share], accepted: [Share])
    @discardableResult
    func addParticipant(_ participant: String, permission: SharePermission, toShare url: String) throws -> Share
    @discardableResult
    func removeParticipant(_ participant: String, fromShare url: String) throws -> Share
    func shareStatus(of recordID: RecordID) throws -> RecordShareStatus?
    /// Shares the zone (`rootRecord` nil) or a record and those under it (the private database).
    @discardableResult
    func createShare(rootRecord: String?, inZoneWith zoneID: ZoneID, publicPermission: SharePermission, title: String?,
                     recordName requestedName: String?, fields: [String: FieldValue]) throws -> Share
    /// Accepts the share at `url` as the caller; its zone then shows in their shared database.
    @discardableResult
    func acceptShare(_ url: String) throws -> Share
    @discardableResult
    func setPublicPermission(_ permission: SharePermission, ofShare url: String) throws -> Share
    /// Ends the share at `url` for its owner (the share record goes; the records stay), or
    /// takes the caller out of it when they are a participant.
    func deleteShare(_ url: String) throws

    // MARK: History

    func compactHistory(inZoneWith zoneID: ZoneID, before token: String?, keeping: Int?) throws -> HistoryCompaction
    func historyStart(for zoneID: ZoneID) throws -> (oldestValidToken: String, compactedSequence: Int64)
    /// How many changes fell in each of `buckets` equal stretches of the zone's history.
    func changeActivity(inZoneWith zoneID: ZoneID, buckets: Int) throws -> [Int]
}

/// The defaults of `CKDatabase`'s calls, for every implementation.
extension CloudDatabaseService {
    public func modifyRecordZones(saving: [ZoneID] = [], deleting: [ZoneID] = []) throws {
        try modifyRecordZones(saving: saving, deleting: deleting, purging: false)
    }

    public func records(for recordIDs: [RecordID], desiredKeys: [String]? = nil) throws -> [FetchedRecord] {
        try records(for: recordIDs, desiredKeys: desiredKeys, progress: nil)
    }

    public func record(for recordID: RecordID) throws -> Record {
        try record(for: recordID, desiredKeys: nil)
    }

    public func modifyRecords(saving: [Record] = [], deleting: [RecordID] = [], savePolicy: RecordSavePolicy = .ifServerRecordUnchanged,
                              atomically: Bool = true) throws -> ModifyRecordsResult {
        try modifyRecords(saving: saving, deleting: deleting, savePolicy: savePolicy, atomically: atomically)
    }

    public func records(matching query: Query, inZoneWith zoneID: ZoneID = .default, desiredKeys: [String]? = nil,
                        resultsLimit: Int? = nil) throws -> QueryResultsPage {
        try records(matching: query, inZoneWith: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    public func records(continuingMatchFrom cursor: String, desiredKeys: [String]? = nil, resultsLimit: Int? = nil) throws -> QueryResultsPage {
        try records(continuingMatchFrom: cursor, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    public func lastRecords(matching query: Query, inZoneWith zoneID: ZoneID = .default, desiredKeys: [String]? = nil,
                            resultsLimit: Int? = nil) throws -> [Record] {
        try lastRecords(matching: query, inZoneWith: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    public func analyze(_ query: Query) throws -> PredicateAnalysis {
        try analyze(query, now: Date())
    }

    public func recordZoneChanges(inZoneWith zoneID: ZoneID, since token: String? = nil, until endToken: String? = nil,
                                  desiredKeys: [String]? = nil, resultsLimit: Int? = nil,
                                  includingChangedKeys: Bool = false) throws -> ZoneChangesPage {
        try recordZoneChanges(inZoneWith: zoneID, since: token, until: endToken, desiredKeys: desiredKeys, resultsLimit: resultsLimit,
                              includingChangedKeys: includingChangedKeys)
    }

    public func databaseChanges(since token: String? = nil) throws -> DatabaseChangesPage {
        try databaseChanges(since: token, resultsLimit: nil)
    }

    public func notifications(afterSequence sequence: Int64, limit: Int? = nil) throws -> [CloudNotification] {
        try notifications(afterSequence: sequence, limit: limit, unreadOnly: false, includingOwnDevice: false)
    }

    public func compactHistory(inZoneWith zoneID: ZoneID, before token: String? = nil, keeping: Int? = nil) throws -> HistoryCompaction {
        try compactHistory(inZoneWith: zoneID, before: token, keeping: keeping)
    }
}
