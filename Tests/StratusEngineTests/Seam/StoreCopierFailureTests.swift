import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusPostgres
import StratusSQLite
import StratusStores
import StratusTestSupport
import Testing

/// A copy that fails part way (a record of the source names a record type its schema lacks,
/// met after the zones, schema and users are written) leaves its destination as it was: a
/// store the copy made is gone again, file or schema, and an empty store it was given holds
/// exactly what it held, and takes the whole copy once the source is mended.
@Suite struct StoreCopierFailureTests {
    @Test func aFailedCopyLeavesTheDestinationAsItWas() throws {
        let folder = try TemporaryDirectory("store-copy")
        defer { folder.remove() }
        let source = folder.path("source.sqlite")
        do {
            let store = try Store(path: source)
            for name in ["n1", "n2"] {
                try store.database(.private).save(Record(recordType: "Note", recordID: RecordID(recordName: name)))
            }
            try store.backend.write { db in try db.sqlite.execute(sql: "UPDATE record SET type_id = 9999 WHERE name = 'n2'") }
        }

        let newFile = folder.path("copy.sqlite")
        #expect(throws: CloudKitError.self) { try StoreCopier.copy(from: source, to: newFile) }
        #expect(!FileManager.default.fileExists(atPath: newFile))

        let newSchema = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(newSchema) }
        #expect(throws: CloudKitError.self) { try StoreCopier.copy(from: source, to: newSchema) }
        #expect(try !PostgresBackend.exists(PostgresLocation(url: newSchema)))

        let emptySchema = try TestPostgres.freshStoreURL()
        defer { TestPostgres.drop(emptySchema) }
        let before = try Store.postgres(emptySchema, creating: true).copiedRows()
        // It fails on the damaged record, not as a store that holds data.
        #expect { try StoreCopier.copy(from: source, to: emptySchema) } throws: { ($0 as? CloudKitError)?.code == .internalError }
        #expect(try Store.postgres(emptySchema, creating: false).copiedRows() == before)

        // Mended, the source goes into that empty store whole.
        try Store(path: source).backend.write { db in
            try db.sqlite.execute(sql: "UPDATE record SET type_id = (SELECT type_id FROM record WHERE name = 'n1') WHERE name = 'n2'")
        }
        try StoreCopier.copy(from: source, to: emptySchema)
        #expect(try Store.postgres(emptySchema, creating: false).copiedRows() == Store(path: source).copiedRows())
    }
}
