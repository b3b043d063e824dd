import Foundation
@testable import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

/// A fault plan is for the clients under test: by default it reaches calls through the server
/// and the command line, and the dashboard's own reads only when a fault names it.
@Suite(.onEveryBackend) struct FaultClientTests {
    private func busy(_ db: CloudDatabase) -> Bool {
        do {
            _ = try db.record(for: RecordID(recordName: "a"))
            return false
        } catch let error as CloudKitError {
            return error.code == .zoneBusy
        } catch {
            return false
        }
    }

    @Test func aFaultMeetsTheServerAndTheCommandLineButNotTheDashboardUnlessItNamesIt() throws {
        let temp = try TemporaryStore()
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "a"))
        note["title"] = .string("a")
        try temp.privateDB.save(note)
        let plain = try temp.store.addFault(Fault(kind: .zoneBusy, operation: .fetch, trigger: .every(1)))
        #expect(plain.clients == [.server, .cli])
        #expect(!plain.summary.contains("for "), "the default needs no words: \(plain.summary)")
        #expect(busy(temp.privateDB), "the command line's database is .cli")
        #expect(busy(temp.privateDB.reached(through: .server)))
        #expect(!busy(temp.privateDB.reached(through: .dashboard)))
        // The dashboard's service hands out databases of the dashboard client.
        let service = LocalCloudService(store: temp.store)
        #expect(try service.database(.private).records(for: [RecordID(recordName: "a")]).first.map {
            if case .success = $0.result { return true } else { return false }
        } == true, "the dashboard's own read went through")
        // The dashboard's reads were not even seen by the fault.
        #expect(try temp.store.faults().first?.seen == 2)

        _ = try temp.store.clearFaults(id: nil)
        let named = try temp.store.addFault(Fault(kind: .zoneBusy, operation: .fetch, trigger: .every(1), clients: [.dashboard]))
        #expect(named.summary.hasSuffix("for dashboard"), "\(named.summary)")
        #expect(busy(temp.privateDB.reached(through: .dashboard)))
        #expect(!busy(temp.privateDB))
        // Read back from the store as written.
        #expect(try temp.store.faults().first?.clients == [.dashboard])
    }

    @Test func clientNamesAreReadAndRefusedByName() throws {
        #expect(try FaultClient.parse("server, Dashboard").get() == [.server, .dashboard])
        guard case .failure(let error) = FaultClient.parse("server,phone") else {
            Issue.record("phone is not a client")
            return
        }
        #expect(error.message == "'phone' is not a client: use server, cli or dashboard (comma-separated)")
        #expect(FaultClient.text([.dashboard, .server]) == "server,dashboard")
    }
}
