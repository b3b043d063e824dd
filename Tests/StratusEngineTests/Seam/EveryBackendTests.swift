import StratusCloud
@testable import StratusEngine
import StratusMemoryStore
import StratusPostgres
import StratusSQLite
import StratusTestSupport
import Testing

/// The trait that runs the behaviour tests on every backend opens each test's store on the
/// backend of that run, and a memory store's transactions are real: a write that throws leaves
/// nothing, a reader sees only what was committed (and so are PostgreSQL's).
@Suite(.onEveryBackend) struct EveryBackendTests {
    @Test func aTemporaryStoreOpensOnTheBackendOfTheRun() throws {
        #expect(TestBackend.chosen.contains(TestBackend.current))
        let temp = try TemporaryStore()
        switch TestBackend.current {
        case .sqlite: #expect(temp.store.backend is SQLiteStoreFile)
        case .memory: #expect(temp.store.backend is MemoryBackend)
        case .postgres: #expect(temp.store.backend is PostgresBackend)
        }
    }

    @Test func aWriteThatThrowsLeavesNothingAndReadersSeeOnlyCommits() throws {
        let temp = try TemporaryStore()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try temp.store.write { db in
                _ = try db.zones.makeZone(ZoneID(zoneName: "Gone"), scope: .private, sequenceScope: .private)
                #expect(try temp.store.read { try $0.zones.find(ZoneID(zoneName: "Gone"), scope: .private) } == nil)
                throw Refused()
            }
        }
        #expect(try temp.store.read { try $0.zones.find(ZoneID(zoneName: "Gone"), scope: .private) } == nil)
        try temp.store.write { db in _ = try db.zones.makeZone(ZoneID(zoneName: "Kept"), scope: .private, sequenceScope: .private) }
        #expect(try temp.store.read { try $0.zones.find(ZoneID(zoneName: "Kept"), scope: .private) }?.state == .live)
    }

    @Test func aBulkWriteKeepsWhatItCommittedAndDropsWhatItRolledBack() throws {
        let temp = try TemporaryStore()
        try temp.store.writeWithoutTransaction { db in
            try db.beginTransaction()
            _ = try db.zones.makeZone(ZoneID(zoneName: "Committed"), scope: .private, sequenceScope: .private)
            try db.commit()
            try db.beginTransaction()
            _ = try db.zones.makeZone(ZoneID(zoneName: "RolledBack"), scope: .private, sequenceScope: .private)
            try db.rollback()
        }
        #expect(try temp.store.read { try $0.zones.find(ZoneID(zoneName: "Committed"), scope: .private) } != nil)
        #expect(try temp.store.read { try $0.zones.find(ZoneID(zoneName: "RolledBack"), scope: .private) } == nil)
    }
}
