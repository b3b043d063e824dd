import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine
import StratusModel
import StratusRemote

/// `stratus export --remote`: the records of one type, zone by zone, page by page through the
/// remote's query (CloudKit Web Services has no schema call to list the types, nor an export),
/// written as the local export writes them, so `stratus save --import` reads them back the same.
///
/// With `embedAssets`, the first record that points at an asset carries its content, downloaded
/// from the remote's `downloadURL`, as a `data:` URL — as the local export embeds it.
struct RemoteRecordExporter {
    let database: RemoteDatabase
    let service: RemoteCloudService
    let recordType: String
    let embedAssets: Bool
    private var writtenAssets: Set<String> = []

    init(database: RemoteDatabase, service: RemoteCloudService, recordType: String, embedAssets: Bool) {
        self.database = database
        self.service = service
        self.recordType = recordType
        self.embedAssets = embedAssets
    }

    /// The zones an export without `--zone` goes through: the default zone first, then by name,
    /// as the local export orders them.
    static func zones(of database: RemoteDatabase) throws -> [ZoneID] {
        try database.allRecordZones().map(\.zoneID).sorted { left, right in
            if left.isDefault != right.isDefault { return left.isDefault }
            return (left.zoneName, left.ownerName) < (right.zoneName, right.ownerName)
        }
    }

    /// Writes every record of the type in `zones`, a page at a time; returns how many.
    mutating func export(zones: [ZoneID], write: (Data) throws -> Void, progress: (Int) -> Void) throws -> Int {
        var count = 0
        for zoneID in zones {
            var marker: String?
            repeat {
                let page = try database.pullRecords(ofType: recordType, inZoneWith: zoneID, continuing: marker)
                var out = JSONBytes(capacity: 512 * page.records.count)
                for record in page.records {
                    try line(record, downloads: page.downloads, into: &out)
                    out.newline()
                }
                if !out.bytes.isEmpty { try write(Data(out.bytes)) }
                count += page.records.count
                progress(count)
                marker = page.next
            } while marker != nil
        }
        return count
    }

    /// The record in the export's shape, each asset seen for the first time with its content.
    private mutating func line(_ record: Record, downloads: [String: String], into out: inout JSONBytes) throws {
        guard embedAssets else { return RecordWriter().write(record, into: &out) }
        try RecordWriter().write(record, into: &out) { asset in try dataURL(asset, downloads: downloads) }
    }

    /// An asset's content as a `data:` URL the first time its checksum appears with a download.
    private mutating func dataURL(_ asset: Asset, downloads: [String: String]) throws -> String? {
        guard let url = downloads[asset.fileChecksum], writtenAssets.insert(asset.fileChecksum).inserted else { return nil }
        let data = try service.client.download(url)
        return "data:application/octet-stream;base64," + data.base64EncodedString()
    }
}
