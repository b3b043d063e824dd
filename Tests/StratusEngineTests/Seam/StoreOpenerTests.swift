import Foundation
import StratusCloud
import StratusEngine
import StratusStores
import StratusTestSupport
import Testing

/// The front ends open stores through `StoreOpener`, which picks the backend by location.
@Suite struct StoreOpenerTests {
    @Test func aPathIsAnSQLiteFileAndAPostgresURLIsNot() {
        #expect(StoreOpener.backend(of: "/tmp/store.sqlite") == .sqlite)
        #expect(StoreOpener.backend(of: "store.sqlite") == .sqlite)
        #expect(StoreOpener.backend(of: "postgres://db.example/stratus") == .postgres)
        #expect(StoreOpener.backend(of: "PostgreSQL://db.example/stratus") == .postgres)
    }

    @Test func aFileOpensAsTheSameStoreEachTime() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let made = try StoreOpener.open(folder.storePath, ifMissing: .create, creatingWith: .production)
        #expect(try made.environment == .production)
        let reopened = try StoreOpener.open(folder.storePath, ifMissing: .refuse)
        #expect(reopened.storeID == made.storeID)
        #expect(try StoreOpener.exportSchema(ofStoreAt: folder.storePath).text == made.exportSchema().text)
    }

    @Test func aMissingStoreIsRefusedUnlessItIsToBeMadeAndNothingIsLeftBehind() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let typo = folder.path + "/nested/demo.sqlit"
        let error = #expect(throws: CloudKitError.self) { try StoreOpener.open(typo, ifMissing: .refuse) }
        #expect(error?.reason == .storeNotFound(path: typo))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/nested"))
        _ = try StoreOpener.open(typo, ifMissing: .create)
        #expect(StoreOpener.storeExists(at: typo))
    }

    @Test func aPostgresLocationIsRefusedSayingWhy() {
        let error = #expect(throws: CloudKitError.self) { try StoreOpener.open("postgres://db.example/stratus", ifMissing: .create) }
        #expect(error?.code == .badDatabase)
        #expect(error?.message.contains("PostgreSQL") == true)
    }
}
