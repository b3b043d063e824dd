import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusRemote

/// Writes pulled pages into the local store through the restore path `save --import` uses
/// (``CloudDatabase/importRecords(_:assets:)``): names, change tags, creators, times and
/// fields kept exactly, each page one transaction. Records whose change tag the store already
/// holds are skipped, so a page met again (a resumed pull) changes nothing.
struct PullApplier {
    let client: CKWSClient
    let includeAssets: Bool
    var tally = PullTally()
    var progress = PullProgress()
    /// Assets downloaded in this run, by the checksum the remote names them with.
    private var fetched: [String: Asset] = [:]

    init(client: CKWSClient, includeAssets: Bool) {
        self.client = client
        self.includeAssets = includeAssets
    }

    /// A record that could not be written, and why.
    struct Failure {
        var recordName: String
        var error: CloudKitError
    }

    /// Writes `page`'s records and deletions into `zoneID` of `database`; returns the records
    /// it could not write (the others are written).
    mutating func apply(_ page: PulledPage, to database: CloudDatabase, zone zoneID: ZoneID) throws -> [Failure] {
        var records = page.records.map { record in
            var record = record
            record.recordID = RecordID(recordName: record.recordName, zoneID: zoneID)
            return record
        }
        let held = try heldTags(of: records.map(\.recordID), in: database)
        records.removeAll { record in held[record.recordName].map { $0 == record.recordChangeTag } ?? false }
        var contents: [Data] = []
        for index in records.indices {
            records[index] = try withLocalAssets(records[index], downloads: page.downloads, contents: &contents)
        }
        var failures = try write(records, assets: contents, into: database)
        let failed = Set(failures.map(\.recordName))
        for record in records where !failed.contains(record.recordName) {
            if held[record.recordName] == nil { tally.recordsNew += 1 } else { tally.recordsChanged += 1 }
        }
        failures += try delete(page.deletions.map { RecordID(recordName: $0.recordName, zoneID: zoneID) }, from: database)
        progress.update(tally, zone: zoneID.zoneName)
        return failures
    }

    /// Deletes records through the one delete path; one already absent counts as nothing.
    mutating func delete(_ recordIDs: [RecordID], from database: CloudDatabase) throws -> [Failure] {
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

    /// The change tags the store holds for `recordIDs`, by record name.
    private func heldTags(of recordIDs: [RecordID], in database: CloudDatabase) throws -> [String: String] {
        var tags: [String: String] = [:]
        for fetched in try database.records(for: recordIDs, desiredKeys: []) {
            if case .success(let record) = fetched.result { tags[record.recordName] = record.recordChangeTag ?? "" }
        }
        return tags
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
    private mutating func withLocalAssets(_ record: Record, downloads: [String: String], contents: inout [Data]) throws -> Record {
        var changes: [(String, FieldValue?)] = []
        for (name, value) in record.fields where value.type.base == .asset {
            guard includeAssets else {
                tally.assetsSkipped += value.elements.count
                changes.append((name, nil))
                continue
            }
            var local: [FieldValue] = []
            for case .asset(let asset) in value.elements {
                local.append(.asset(try localAsset(asset, url: downloads[asset.fileChecksum], contents: &contents)))
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
    /// own SHA-256 (iCloud's checksums are of another kind). Without a URL it stays as it is.
    private mutating func localAsset(_ asset: Asset, url: String?, contents: inout [Data]) throws -> Asset {
        if let known = fetched[asset.fileChecksum] { return known }
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
