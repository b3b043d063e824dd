import Foundation
@testable import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

/// Each fault kind on the engine: what fires, on which calls, what the caller gets, and what
/// the plan counts.
@Suite(.onEveryBackend) struct FaultPlanTests {
    private func note(_ name: String, _ value: Int64 = 1, zone: ZoneID = .default) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["n"] = .int64(value)
        record["title"] = .string("note \(name)")
        return record
    }

    private func code(_ body: () throws -> Void) -> CloudKitError? {
        do {
            try body()
            return nil
        } catch let error as CloudKitError {
            return error
        } catch {
            Issue.record("not a CloudKit error: \(error)")
            return nil
        }
    }

    @Test func rateLimitFiresOnceWithRetryAfterAndIsCounted() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try db.save(note("a"))
        let fault = try temp.store.addFault(Fault(kind: .requestRateLimited, operation: .fetch, retryAfter: 7))
        #expect(fault.id > 0)
        let error = code { _ = try db.record(for: RecordID(recordName: "a")) }
        #expect(error?.code == .requestRateLimited)
        #expect(error?.retryAfter == 7)
        #expect(error?.code.serverErrorCode == "THROTTLED")
        // Once: the next fetch goes through, and a save was never a match.
        #expect(try db.record(for: RecordID(recordName: "a"))["n"] == .int64(1))
        try db.save(note("b"))
        let listed = try #require(try temp.store.faults().first)
        // A spent fault no longer looks at calls.
        #expect(listed.seen == 1 && listed.fired == 1 && listed.isSpent)
        let events = try temp.store.faultEvents()
        #expect(events.count == 1)
        #expect(events[0].faultID == fault.id && events[0].operation == .fetch && events[0].message.contains("requestRateLimited (7)"))
    }

    @Test func zoneBusyEverySecondCallOnlyInItsZone() throws {
        let temp = try TemporaryStore()
        let travel = try temp.zone("Travel")
        let notes = try temp.zone("Notes")
        let db = temp.privateDB
        try temp.store.addFault(Fault(kind: .zoneBusy, zoneName: "Travel", trigger: .every(2)))
        var outcomes: [Bool] = []
        for index in 0..<6 {
            // Calls in another zone neither fire nor count.
            try db.save(note("n\(index)", zone: notes))
            outcomes.append(code { try db.save(note("t\(index)", zone: travel)) } == nil)
        }
        #expect(outcomes == [true, false, true, false, true, false])
        let fault = try #require(try temp.store.faults().first)
        #expect(fault.seen == 6 && fault.fired == 3 && !fault.isSpent)
        let error = code { _ = try db.recordZoneChanges(inZoneWith: travel) }
        #expect(error == nil) // the 7th call
        let busy = code { _ = try db.records(matching: Query(recordType: "Note"), inZoneWith: travel) }
        #expect(busy?.code == .zoneBusy && busy?.retryAfter == 5 && busy?.message.contains("Travel") == true)
    }

    @Test func afterLetsCallsThroughAndFiresOnce() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        try temp.store.addFault(Fault(kind: .serviceUnavailable, operation: .zoneChanges, trigger: .after(2)))
        var failures: [CloudKitError.Code?] = []
        for _ in 0..<5 { failures.append(code { _ = try db.recordZoneChanges(inZoneWith: zone) }?.code) }
        #expect(failures == [nil, nil, .serviceUnavailable, nil, nil])
    }

    @Test func serverRecordChangedIsAnotherDevicesRealSave() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        let stored = try db.save(note("a", zone: zone))
        let before = try db.currentToken(for: zone)
        try temp.store.addFault(Fault(kind: .serverRecordChanged, recordNames: ["a"], otherDeviceFields: #"{"title":{"value":"from the phone"},"n":{"value":9}}"#))
        var mine = stored
        mine["title"] = .string("from the laptop")
        let error = try #require(try db.modifyRecords(saving: [mine]).partialFailure?.partialErrors["a"])
        #expect(error.code == .serverRecordChanged)
        let server = try #require(error.serverRecord)
        #expect(server["title"] == .string("from the phone"))
        #expect(server["n"] == .int64(9))
        #expect(server.recordChangeTag != stored.recordChangeTag)
        // The other device's save is in the log with its changed keys, and the client's retry on
        // the server's record goes through (the fault fired once).
        let page = try db.recordZoneChanges(inZoneWith: zone, since: before, includingChangedKeys: true)
        #expect(page.changes.count == 1)
        #expect(page.changedKeys["a"]?.sorted() == ["n", "title"])
        var merged = server
        merged["title"] = .string("from the laptop")
        let saved = try db.save(merged)
        #expect(saved["title"] == .string("from the laptop") && saved["n"] == .int64(9))
    }

    @Test func serverRecordChangedOnACreateMeansTheOtherDeviceMadeItFirst() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try temp.store.addFault(Fault(kind: .serverRecordChanged))
        let result = try db.modifyRecords(saving: [note("fresh", 3), note("other", 4)])
        let error = try #require(result.partialFailure?.partialErrors["fresh"])
        #expect(error.code == .serverRecordChanged)
        #expect(error.serverRecord?["n"] == .int64(3))
        #expect(result.partialFailure?.partialErrors["other"] == nil)
        // Saves with changed keys never conflict: the fault's save happens, the caller's wins.
        try temp.store.addFault(Fault(kind: .serverRecordChanged, otherDeviceFields: #"{"title":{"value":"theirs"}}"#))
        var mine = try db.record(for: RecordID(recordName: "other"))
        mine["n"] = .int64(5)
        let saved = try db.modifyRecords(saving: [mine], savePolicy: .changedKeys).savedRecords()[0]
        #expect(saved["n"] == .int64(5) && saved["title"] == .string("theirs"))
    }

    @Test func partialFailureFailsChosenRecordsAndAtomicZonesFailWhole() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        try temp.store.addFault(Fault(kind: .partialFailure, zoneName: "_defaultZone", recordNames: ["b"], retryAfter: 3, itemLimit: nil))
        let loose = try db.modifyRecords(saving: [note("a"), note("b"), note("c")])
        let errors = try #require(loose.partialFailure?.partialErrors)
        #expect(Array(errors.keys) == ["b"])
        #expect(errors["b"]?.code == .serviceUnavailable && errors["b"]?.retryAfter == 3)
        #expect(try db.records(for: ["a", "b", "c"].map { RecordID(recordName: $0) }).map { (try? $0.result.get()) != nil } == [true, false, true])

        // Without names, every other record fails; in a custom zone, atomically, the rest fail with it.
        try temp.store.addFault(Fault(kind: .partialFailure, zoneName: "Notes"))
        let atomic = try db.modifyRecords(saving: [note("x", zone: zone), note("y", zone: zone), note("z", zone: zone)])
        let atomicErrors = try #require(atomic.partialFailure?.partialErrors)
        #expect(atomicErrors["x"]?.code == .serviceUnavailable && atomicErrors["z"]?.code == .serviceUnavailable)
        #expect(atomicErrors["y"]?.code == .batchRequestFailed)
        #expect(try db.recordZoneChanges(inZoneWith: zone).changes.isEmpty)

        // On fetch: the chosen records fail, the rest arrive.
        try temp.store.clearFaults()
        try temp.store.addFault(Fault(kind: .partialFailure, operation: .fetch, recordNames: ["c"]))
        let fetched = try db.records(for: ["a", "c"].map { RecordID(recordName: $0) })
        #expect((try? fetched[0].result.get()) != nil)
        guard case .failure(let fetchError) = fetched[1].result else { Issue.record("c was fetched"); return }
        #expect(fetchError.code == .serviceUnavailable && fetchError.message.contains("not fetched"))
    }

    @Test func limitExceededRefusesBatchesOverTheLimitEveryTime() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try temp.store.addFault(Fault(kind: .limitExceeded, itemLimit: 3))
        for _ in 0..<2 {
            let error = code { _ = try db.modifyRecords(saving: (0..<5).map { note("r\($0)") }) }
            #expect(error?.code == .limitExceeded && error?.message.contains("limit of 3") == true)
        }
        #expect(try db.modifyRecords(saving: (0..<3).map { note("r\($0)") }).partialFailure == nil)
        #expect(code { _ = try db.records(for: (0..<4).map { RecordID(recordName: "r\($0)") }) }?.code == .limitExceeded)
        let fault = try #require(try temp.store.faults().first)
        // Small batches are not even matches.
        #expect(fault.seen == 3 && fault.fired == 3)
    }

    @Test func changeTokenExpiredForOneTokenOrAny() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        try db.save(note("a", zone: zone))
        let old = try db.currentToken(for: zone)
        try db.save(note("b", zone: zone))
        let newer = try db.currentToken(for: zone)
        try temp.store.addFault(Fault(kind: .changeTokenExpired, token: old))
        #expect(code { _ = try db.recordZoneChanges(inZoneWith: zone, since: old) }?.code == .changeTokenExpired)
        #expect(code { _ = try db.recordZoneChanges(inZoneWith: zone, since: old) }?.code == .changeTokenExpired)
        #expect(try db.recordZoneChanges(inZoneWith: zone, since: newer).changes.isEmpty)
        #expect(try db.recordZoneChanges(inZoneWith: zone).changes.count == 2)

        try temp.store.clearFaults()
        try temp.store.addFault(Fault(kind: .changeTokenExpired, operation: .databaseChanges))
        let databaseToken = try db.currentDatabaseToken()
        #expect(code { _ = try db.databaseChanges(since: databaseToken) }?.code == .changeTokenExpired)
        #expect(try db.databaseChanges().changedZoneIDs.contains(zone))
        #expect(try db.recordZoneChanges(inZoneWith: zone, since: old).changes.count == 1)
    }

    @Test func notAuthenticatedRefusesTheCall() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try temp.store.addFault(Fault(kind: .notAuthenticated, operation: .zones))
        #expect(code { _ = try db.allRecordZones() }?.code == .notAuthenticated)
        #expect(try db.allRecordZones().count == 1)
    }

    @Test func probabilityReplaysWithItsSeed() throws {
        func pattern(seed: UInt64) throws -> [Bool] {
            let temp = try TemporaryStore()
            let db = temp.privateDB
            try db.save(note("a"))
            try temp.store.addFault(Fault(kind: .zoneBusy, operation: .query, trigger: .probability(0.3, seed: seed)))
            return (0..<200).map { _ in code { _ = try db.records(matching: Query(recordType: "Note")) } != nil }
        }
        let first = try pattern(seed: 42)
        #expect(try pattern(seed: 42) == first)
        #expect(try pattern(seed: 43) != first)
        let rate = Double(first.filter { $0 }.count) / 200
        #expect(rate > 0.18 && rate < 0.42, "fired on \(rate) of the calls for p = 0.3")
    }

    @Test func faultsOffForTheEnginesOwnReadsAndClearing() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        try db.save(note("a"))
        try temp.store.addFault(Fault(kind: .serviceUnavailable, trigger: .every(1)))
        #expect(try db.withoutFaults.record(for: RecordID(recordName: "a"))["n"] == .int64(1))
        #expect(try temp.store.faults()[0].seen == 0)
        #expect(code { try db.save(note("b")) }?.code == .serviceUnavailable)
        #expect(try temp.store.clearFaults() == 1)
        #expect(try temp.store.faultEvents().isEmpty)
        try db.save(note("b"))
        #expect(code { try temp.store.clearFaults(id: 99) }?.code == .unknownItem)
    }

    @Test func plansThatCannotHappenAreRefusedWithTheReason() throws {
        let temp = try TemporaryStore()
        let refused: [(Fault, String)] = [
            (Fault(kind: .serverRecordChanged, operation: .query), "serverRecordChanged does not happen on query"),
            (Fault(kind: .zoneBusy, token: "x"), "token is given only to changeTokenExpired"),
            (Fault(kind: .limitExceeded, itemLimit: 0), "at least 1"),
            (Fault(kind: .zoneBusy, trigger: .every(0)), "every 1 or more"),
            (Fault(kind: .zoneBusy, trigger: .probability(1.5, seed: 1)), "between 0 and 1"),
            (Fault(kind: .serverRecordChanged, otherDeviceFields: "{\"n\": 3}"), "cannot be read"),
            (Fault(kind: .zoneBusy, retryAfter: -1), "Retry-after"),
        ]
        for (fault, reason) in refused {
            let error = code { try temp.store.addFault(fault) }
            #expect(error?.code == .invalidArguments)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "accepted") should say \(reason)")
        }
        #expect(try temp.store.faults().isEmpty)
    }
}
