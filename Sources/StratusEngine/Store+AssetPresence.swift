import Foundation

extension Store {
    /// Whether the store holds content under `checksum`, without reading it (an asset may be
    /// 50 MB): what a pull asks before downloading an asset again.
    public func holdsAsset(checksum: String) throws -> Bool {
        try read { db in try db.assets.holds(checksum: checksum) }
    }
}
