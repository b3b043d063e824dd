import Foundation
@testable import StratusEngine
import StratusMemoryStore
import StratusTestSupport
import Testing

/// The asset storage seam holds: content stored twice, empty content and unknown checksums
/// read back alike from SQLite's ``AssetStorage`` and the memory store's.
@Suite struct AssetStorageSeamTests {
    @Test func aSecondStorageKeepsAssetsAsSQLiteDoes() throws {
        let temp = try TemporaryStore()
        let memoryStore = try Store.inMemory(named: temp.folder.path("memory"))
        let contents = [Data("harbour".utf8), Data(), Data((0..<4096).map { UInt8($0 % 251) }), Data("harbour".utf8)]
        try temp.store.write { db in try memoryStore.write { held in
            let memory = held.assets
            for content in contents {
                let (sqlite, held) = (try db.assets.insert(content), try memory.insert(content))
                #expect(sqlite == held)
            }
            for checksum in contents.map(SHA256.hexDigest) + [String(repeating: "0", count: 64), "not-a-checksum"] {
                let (sqliteHolds, heldHolds) = (try db.assets.holds(checksum: checksum), try memory.holds(checksum: checksum))
                #expect(sqliteHolds == heldHolds)
                let (sqliteData, heldData) = (try db.assets.data(checksum: checksum), try memory.data(checksum: checksum))
                #expect(sqliteData == heldData)
            }
        } }
    }
}
