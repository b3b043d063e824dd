import Foundation
import StratusCloud
@testable import StratusDashboard
import StratusEngine
import StratusModel
import StratusTerminal
import Testing

/// The dashboard reaches a container only through ``CloudService``: so the same tabs can run
/// on a local store and on a CloudKit Web Services endpoint.
@Suite struct CloudServiceSeamTests {
    /// The dashboard's sources, found from this file.
    static let dashboardSources: [URL] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/StratusDashboard")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return files.filter { $0.pathExtension == "swift" }
    }()

    @Test func noDashboardFileCallsTheEngineDatabaseOrTheStoreBelowIt() throws {
        #expect(Self.dashboardSources.count > 80, "the dashboard's sources are found (\(Self.dashboardSources.count) files)")
        // `CloudDatabase` as a word (not `CloudDatabaseService`), a store's databases, GRDB.
        let markers = [#"\bCloudDatabase\b"#, #"\.database\(\.[a-z]+, (user|caller|device):"#, #"import GRDB"#, #"\bStore\.exportSchema"#]
        var offenders: [String] = []
        for file in Self.dashboardSources {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                for marker in markers where line.range(of: marker, options: .regularExpression) != nil {
                    offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "the dashboard goes through its CloudService:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func aContainerWithoutALocalStoreSaysSoInTheLogsAndFaultsTabs() throws {
        let harness = try Harness(records: Fixtures.trips(3), size: Size(width: 120, height: 30), service: { WithoutLocalStore(base: $0) })
        // Records still come through the service.
        #expect(harness.state.query.records.count == 3)
        harness.press(.char("8"))
        harness.pollLogs()
        #expect(harness.screen().contains("Only a local store has this"))
        harness.press(.char("9"))
        harness.pollFaults()
        #expect(harness.screen().contains("Only a local store has this"))
    }

    @Test func actingAsAnotherUserSwitchesEveryDatabaseTheServiceHandsOut() throws {
        let harness = try Harness(records: Fixtures.trips(2))
        let bob = try harness.store.createUser(alias: "bob")
        let service = harness.runner.services.cloud
        #expect(try service.database(.private).allRecordZones().contains { $0.zoneID.zoneName == "Travel" })
        service.acting.set(.user(bob.recordName))
        // Bob's private database is his own: the owner's zone is not in it.
        #expect(try !service.database(.private).allRecordZones().contains { $0.zoneID.zoneName == "Travel" })
        #expect(try service.database(.private).records(matching: Query(recordType: "Trip"), inZoneWith: .default).records.isEmpty)
    }
}

/// A container reached without a local store's features (as a CKWS endpoint is): everything
/// else forwards to the local service.
struct WithoutLocalStore: CloudService {
    let base: LocalCloudService
    var acting: ActingUser { base.acting }
    func database(_ scope: DatabaseScope) -> any CloudDatabaseService { base.database(scope) }
    func users() throws -> [StoreUser] { try base.users() }
    func recordTypes() throws -> [RecordTypeSchema] { try base.recordTypes() }
    func environment() throws -> StoreEnvironment { try base.environment() }
    func exportSchema() throws -> SchemaDocument { try base.exportSchema() }
    func assetData(checksum: String) throws -> Data? { try base.assetData(checksum: checksum) }
    var localStore: (any LocalStoreFeatures)? { nil }
}
