import Foundation
import StratusCloud
import StratusEngine
import StratusTestSupport
import Testing

/// The typed reasons the command line's advice tests do not reach: every way of naming a record
/// type the schema lacks, a missing subscription inside a batch, and a record the fault plan
/// fails; each keeps its code, and most errors keep the general reason.
@Suite(.onEveryBackend) struct ErrorReasonTests {
    @Test func anUnknownRecordTypeIsTheSameReasonWhereverItIsNamed() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let db = temp.privateDB
        let query = failure { _ = try db.records(matching: Query(recordType: "Nope"), inZoneWith: zone) }
        let subscription = failure { _ = try db.save(Subscription.query("Nope", subscriptionID: "s", options: .firesOnAnyChange)) }
        let export = failure { _ = try db.exportCount(zone: zone, recordType: "Nope") }
        for error in [query, subscription, export] {
            #expect(error?.code == .unknownItem)
            #expect(error?.reason == .unknownRecordType("Nope"))
        }
    }

    @Test func aBatchKeepsTheReasonOfEachItem() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let error = failure { _ = try db.modifySubscriptions(deleting: ["gone", "lost"]) }
        #expect(error?.code == .partialFailure)
        #expect(error?.reason == .general)
        #expect(error?.partialErrors["gone"]?.reason == .unknownSubscription(subscriptionID: "gone", database: .private))
        #expect(error?.partialErrors["lost"]?.reason == .unknownSubscription(subscriptionID: "lost", database: .private))
    }

    @Test func aRecordTheFaultPlanFailsSaysSo() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Notes")
        let fault = try temp.store.addFault(Fault(kind: .partialFailure, recordNames: ["b"]))
        let records = ["a", "b"].map { Record(recordType: "Note", recordID: RecordID(recordName: $0, zoneID: zone)) }
        let result = try temp.privateDB.modifyRecords(saving: records, atomically: false)
        let failed = result.saveResults.compactMap { item -> CloudKitError? in
            if case .failure(let error) = item.result { return error }
            return nil
        }
        #expect(failed.map(\.code) == [.serviceUnavailable])
        #expect(failed.map(\.reason) == [.fault(id: fault.id)])
    }

    @Test func otherErrorsKeepTheGeneralReason() throws {
        let temp = try TemporaryStore()
        let db = temp.privateDB
        let missing = failure { _ = try db.record(for: RecordID(recordName: "nobody-saved-this")) }
        #expect(missing?.code == .unknownItem)
        #expect(missing?.reason == .general)
        let plain = CloudKitError(.invalidArguments, "A sentence for people.")
        #expect(plain.reason == .general)
    }
}
