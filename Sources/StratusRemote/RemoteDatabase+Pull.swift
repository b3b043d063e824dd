import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine

/// One page of a pull: the records as the server has them (system fields included), the
/// deletions, and where to download each asset the records point at (a decoded record keeps
/// only an asset's checksum and size).
public struct PulledPage: Sendable {
    public var records: [Record]
    public var deletions: [RecordID]
    /// Each asset's `downloadURL`, by the `fileChecksum` the records' fields hold.
    public var downloads: [String: String]
    /// The zone's token after this page (changes), or the marker of the next page (a query).
    public var next: String?
    public var moreComing: Bool
}

/// What `stratus pull` reads: a zone's changes or a record type's records, a page of at most
/// 200 at a time, each with its assets' download URLs.
extension RemoteDatabase {
    /// The changes of `zoneID` after `token` (nil: from the beginning), one page.
    public func pullZoneChanges(inZoneWith zoneID: ZoneID, since token: String?) throws -> PulledPage {
        let (page, answered) = try zoneChanges(inZoneWith: zoneID, since: token, desiredKeys: nil, resultsLimit: RemoteDatabase.batchLimit,
                                               includingChangedKeys: false)
        var records: [Record] = [], deletions: [RecordID] = []
        for change in page.changes {
            switch change {
            case .changed(let record): records.append(record)
            case .deleted(let recordID, _): deletions.append(recordID)
            }
        }
        return PulledPage(records: records, deletions: deletions, downloads: RemoteDatabase.downloads(in: answered),
                          next: page.changeToken, moreComing: page.moreComing)
    }

    /// Every record of `recordType` in the zone (the public database has no change feed), one
    /// page; `marker` is the previous page's `next`.
    public func pullRecords(ofType recordType: String, inZoneWith zoneID: ZoneID = .default, continuing marker: String?) throws -> PulledPage {
        let request: JSONValue
        if let marker {
            request = markers.request(for: marker) ?? .object([])
        } else {
            guard let first = try self.request(for: Query(recordType: recordType), inZoneWith: zoneID) else {
                return PulledPage(records: [], deletions: [], downloads: [:], next: nil, moreComing: false)
            }
            request = first
        }
        let (page, answered) = try page(request, zoneID: zoneID, marker: marker, desiredKeys: nil, resultsLimit: RemoteDatabase.batchLimit)
        return PulledPage(records: page.records, deletions: [], downloads: RemoteDatabase.downloads(in: answered),
                          next: page.cursor, moreComing: page.cursor != nil)
    }

    /// The `downloadURL` of every asset value in the answered records, by its `fileChecksum`.
    static func downloads(in answered: [AnsweredRecord]) -> [String: String] {
        answered.reduce(into: [:]) { urls, entry in urls.merge(entry.downloadURLs) { _, later in later } }
    }
}
