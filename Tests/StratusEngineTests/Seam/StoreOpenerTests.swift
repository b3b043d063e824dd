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

    @Test func aMalformedPostgresURLIsAnErrorNamingTheProblemWithThePasswordMasked() {
        let error = #expect(throws: CloudKitError.self) { try StoreOpener.open("postgres://ann:secret@db.example", ifMissing: .create) }
        #expect(error?.code == .badDatabase)
        #expect(error?.message.contains("names no database") == true)
        #expect(error?.message.contains("secret") == false)
        #expect(error?.message.contains("ann:***@db.example") == true)
    }

    @Test func anUnreachableServerIsAnErrorNamingItNotAHang() {
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        let error = #expect(throws: CloudKitError.self) { try StoreOpener.open("postgres://ann:secret@127.0.0.1:1/stratus", ifMissing: .create) }
        #expect(error?.code == .serviceUnavailable)
        #expect(error?.message.contains("postgres://ann:***@127.0.0.1:1/stratus") == true)
        #expect(error?.message.contains("secret") == false)
        #expect(!StoreOpener.storeExists(at: "postgres://127.0.0.1:1/stratus"))
    }

    @Test func aPostgresStoreIsRefusedWhenMissingAndOpensAsTheSameStoreOnceMade() throws {
        let url = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(url) }
        let error = #expect(throws: CloudKitError.self) { try StoreOpener.open(url, ifMissing: .refuse) }
        #expect(error?.reason == .storeNotFound(path: url))
        #expect(!StoreOpener.storeExists(at: url))
        let made = try StoreOpener.open(url, ifMissing: .create, creatingWith: .production)
        #expect(try made.environment == .production)
        #expect(StoreOpener.storeExists(at: url))
        let reopened = try StoreOpener.open(url, ifMissing: .refuse)
        #expect(reopened.storeID == made.storeID)
        #expect(try StoreOpener.exportSchema(ofStoreAt: url).text == made.exportSchema().text)
    }

    @Test func aServersStoresAreFilesInAFolderOrSchemasOfADatabase() throws {
        #expect(StoreOpener.location(in: "/srv/stores", container: "iCloud.A", environment: "development") == "/srv/stores/iCloud.A/development.sqlite")
        let database = try TestPostgres.url()
        let upper = StoreOpener.location(in: database, container: "iCloud.com.Example.App", environment: "development")
        let lower = StoreOpener.location(in: database, container: "iCloud.com.example.app", environment: "development")
        let production = StoreOpener.location(in: database, container: "iCloud.com.Example.App", environment: "production")
        #expect(Set([upper, lower, production]).count == 3, "each container and environment has a schema of its own")
        #expect(upper.contains("?schema=c_icloud_com_example_app_"))
        defer { [upper, lower, production].forEach(TestPostgres.drop) }
        let made = try StoreOpener.open(upper, ifMissing: .create)
        #expect(try StoreOpener.open(upper, ifMissing: .refuse).storeID == made.storeID)
        #expect(try StoreOpener.open(lower, ifMissing: .create).storeID != made.storeID)
    }
}
