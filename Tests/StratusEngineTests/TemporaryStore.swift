import Foundation
@testable import StratusEngine

/// A store in a fresh temporary folder, removed when the value goes away.
final class TemporaryStore {
    let directory: URL
    let store: Store

    init(environment: StoreEnvironment? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try Store(path: directory.appendingPathComponent("store.sqlite").path, creatingWith: environment)
    }

    var path: String { store.path }
    var privateDB: CloudDatabase { store.database(.private) }

    /// A custom zone in the private database.
    func zone(_ name: String) throws -> ZoneID {
        let zoneID = ZoneID(zoneName: name)
        try privateDB.modifyRecordZones(saving: [zoneID])
        return zoneID
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
