import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Writes pulled pages into the local store through the restore path `save --import` uses
/// (``CloudDatabase/importRecords(_:assets:)``): names, change tags, creators, times and
/// fields kept exactly, each page one transaction. Records whose change tag the store already
/// holds are skipped, so a page met again (a resumed pull) changes nothing.
struct PullApplier {
    let client: CKWSClient
    let includeAssets: Bool
    var tally = PullTally()
    let events: PullEvents
    /// Assets downloaded in this run, by the checksum the remote names them with.
    private var fetched: [String: Asset] = [:]

    init(client: CKWSClient, includeAssets: Bool, events: PullEvents) {
        self.client = client
        self.includeAssets = includeAssets
        self.events = events
    }

    typealias Failure = PullRefusal.Failure

    /// Writes `page`'s records and deletions into `zoneID` of `database`; returns the records
    /// it could not write (the others are written).
    mutating func apply(_ page: PulledPage, to database: CloudDatabase, zone zoneID: ZoneID) throws -> [Failure] {
        let store = database.store
        var records = page.records.map { record in
            var record = record
            record.recordID = RecordID(recordName: record.recordName, zoneID: zoneID)
            return record
        }
        let held = try heldRecords(records.map(\.recordID), in: database)
        records.removeAll { record in held[record.recordName].map { $0.tag == record.recordChangeTag } ?? false }
        var contents: [Data] = []
        for index in records.indices {
            records[index] = try withLocalAssets(records[index], downloads: page.downloads, store: store, contents: &contents)
        }
        var failures: [Failure] = []
        for (creator, group) in byCreator(records, in: database) {
            failures += try write(group, assets: contents, into: actingAs(creator, in: database))
        }
        let failed = Set(failures.map(\.recordName))
        for record in records where !failed.contains(record.recordName) {
            if held[record.recordName] == nil { tally.recordsNew += 1 } else { tally.recordsChanged += 1 }
        }
        failures += try delete(page.deletions.map { RecordID(recordName: $0.recordName, zoneID: zoneID) }, from: database)
        events.progress(tally, zoneID.zoneName)
        return failures
    }

    /// Deletes records through the one delete path; one already absent counts as nothing.
    mutating func delete(_ recordIDs: [RecordID], from database: CloudDatabase) throws -> [Failure] {
        var failures: [Failure] = []
        var creators: [String: [RecordID]] = [:]
        if database.scope == .public {
            let held = try heldRecords(recordIDs, in: database)
            for recordID in recordIDs { creators[held[recordID.recordName]?.creator ?? "", default: []].append(recordID) }
        } else {
            creators[""] = recordIDs
        }
        for (creator, recordIDs) in creators.sorted(by: { $0.key < $1.key }) {
            failures += try deleteActing(recordIDs, in: actingAs(creator.isEmpty ? nil : creator, in: database))
        }
        return failures
    }

    /// The public database's records are written by their creators, whom its permissions
    /// (WRITE to `_creator`) let change them; the private database's by the store's owner.
    private func byCreator(_ records: [Record], in database: CloudDatabase) -> [(String?, [Record])] {
        guard database.scope == .public else { return [(nil, records)] }
        return Dictionary(grouping: records) { $0.creatorUserRecordName ?? "" }.sorted { $0.key < $1.key }.map { ($0.key.isEmpty ? nil : $0.key, $0.value) }
    }

    private func actingAs(_ creator: String?, in database: CloudDatabase) -> CloudDatabase {
        guard let creator else { return database }
        return database.store.database(database.scope, user: creator)
    }

    private mutating func deleteActing(_ recordIDs: [RecordID], in database: CloudDatabase) throws -> [Failure] {
        var failures: [Failure] = []
        for start in stride(from: 0, to: recordIDs.count, by: CloudDatabase.maximumBatchSize) {
            let chunk = Array(recordIDs[start..<min(start + CloudDatabase.maximumBatchSize, recordIDs.count)])
            let result = try database.modifyRecords(deleting: chunk, atomically: false)
            for item in result.deleteResults {
                switch item.result {
                case .success: tally.recordsDeleted += 1
                case .failure(let error) where error.code == .unknownItem: break
                case .failure(let error): failures.append(Failure(recordName: item.recordID.recordName, error: error))
                }
            }
        }
        return failures
    }

    /// The change tag and creator of each of `recordIDs` the store holds, by record name.
    private func heldRecords(_ recordIDs: [RecordID], in database: CloudDatabase) throws -> [String: (tag: String, creator: String?)] {
        var held: [String: (tag: String, creator: String?)] = [:]
        for fetched in try database.records(for: recordIDs, desiredKeys: []) {
            if case .success(let record) = fetched.result { held[record.recordName] = (record.recordChangeTag ?? "", record.creatorUserRecordName) }
        }
        return held
    }

    /// All of `records` in one transaction; if the store refuses one, each alone, so every
    /// refusal is told with its record and the rest are written.
    private func write(_ records: [Record], assets: [Data], into database: CloudDatabase) throws -> [Failure] {
        guard !records.isEmpty else { return [] }
        do {
            try database.importRecords(records, assets: assets)
            return []
        } catch is CloudKitError {
            var failures: [Failure] = []
            for record in records {
                do {
                    try database.importRecords([record], assets: assets)
                } catch let error as CloudKitError {
                    failures.append(Failure(recordName: record.recordName, error: error))
                }
            }
            return failures
        }
    }

    /// The record with each asset pointing at the local copy of its content (downloaded once),
    /// or, without assets, with its asset fields left out (counted as skipped).
    private mutating func withLocalAssets(_ record: Record, downloads: [String: String], store: Store, contents: inout [Data]) throws -> Record {
        var changes: [(String, FieldValue?)] = []
        for (name, value) in record.fields where value.type.base == .asset {
            guard includeAssets else {
                tally.assetsSkipped += value.elements.count
                changes.append((name, nil))
                continue
            }
            var local: [FieldValue] = []
            for case .asset(let asset) in value.elements {
                local.append(.asset(try localAsset(asset, url: downloads[asset.fileChecksum], store: store, contents: &contents)))
            }
            if case .list(let base, _) = value { changes.append((name, .list(base, local))) } else { changes.append((name, local.first)) }
        }
        guard !changes.isEmpty else { return record }
        var record = record
        record.setFields(changes, markingChanged: false)
        if !includeAssets { tally.recordsWithoutAssets += 1 }
        return record
    }

    /// The asset as the store names it: its content downloaded from `url` and named by its
    /// own SHA-256 (iCloud's checksums are of another kind). Content the store holds under the
    /// same checksum (a `stratus serve`'s, pulled before) is not downloaded again. Without a
    /// URL it stays as it is.
    private mutating func localAsset(_ asset: Asset, url: String?, store: Store, contents: inout [Data]) throws -> Asset {
        if let known = fetched[asset.fileChecksum] { return known }
        if try store.holdsAsset(checksum: asset.fileChecksum) { return asset }
        guard let url else { return asset }
        let data = try client.download(url)
        let local = Asset(fileChecksum: SHA256.hexDigest(data), size: Int64(data.count))
        contents.append(data)
        fetched[asset.fileChecksum] = local
        tally.assetsDownloaded += 1
        tally.assetBytes += Int64(data.count)
        return local
    }
}
