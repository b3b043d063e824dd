import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusCloud

@Suite struct ModifyEndpointTests {
    private func modify(_ server: ServerHarness, _ operations: String, zone: String = "Notes", atomic: Bool = false) async throws -> ServerHarness.Reply {
        try await server.call("private", "records/modify", #"{"zoneID": {"zoneName": "\#(zone)"}, "atomic": \#(atomic), "operations": [\#(operations)]}"#)
    }

    /// A server whose private database has the zone `Notes`.
    private func serverWithNotes() async throws -> ServerHarness {
        let server = try await ServerHarness()
        try server.store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        return server
    }

    private func tag(_ reply: ServerHarness.Reply, _ index: Int = 0) -> String { reply.records[index]["recordChangeTag"] as? String ?? "" }

    private func fields(_ server: ServerHarness, _ name: String) throws -> [String: FieldValue] {
        try server.store.database(.private).record(for: RecordID(recordName: name, zoneID: ZoneID(zoneName: "Notes"))).fields
    }

    @Test func everyOperationTypeDoesWhatCloudKitSays() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try server.store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        let created = try await modify(server, #"{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}, "body": {"value": "text"}, "when": {"value": 1700000000000, "type": "TIMESTAMP"}}}}"#)
        #expect(created.status == 200)
        #expect(created.records.first?["recordName"] as? String == "n1")
        #expect(created.records.first?["deleted"] as? Bool == false)
        let firstTag = tag(created)
        // create again: the name is taken.
        let again = try await modify(server, #"{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note"}}"#)
        #expect(again.records.first?["serverErrorCode"] as? String == "CONFLICT")
        // update changes only the given fields, and checks the tag.
        let updated = try await modify(server, #"{"operationType": "update", "record": {"recordName": "n1", "recordChangeTag": "\#(firstTag)", "fields": {"title": {"value": "renamed"}}}}"#)
        #expect(try fields(server, "n1")["title"] == .string("renamed"))
        #expect(try fields(server, "n1")["body"] == .string("text"))
        let stale = try await modify(server, #"{"operationType": "update", "record": {"recordName": "n1", "recordChangeTag": "\#(firstTag)", "recordType": "Note", "fields": {"title": {"value": "lost"}}}}"#)
        #expect(stale.records.first?["serverErrorCode"] as? String == "CONFLICT")
        #expect((stale.records.first?["serverRecord"] as? [String: Any])?["recordChangeTag"] as? String == tag(updated))
        #expect(try fields(server, "n1")["title"] == .string("renamed"))
        // replace clears what it leaves out.
        let replaced = try await modify(server, #"{"operationType": "replace", "record": {"recordName": "n1", "recordType": "Note", "recordChangeTag": "\#(tag(updated))", "fields": {"title": {"value": "only"}}}}"#)
        #expect(replaced.records.first?["serverErrorCode"] == nil, "\(replaced.json)")
        #expect(try fields(server, "n1").keys.sorted() == ["title"])
        // forceUpdate needs no tag and creates a missing record; forceReplace too.
        _ = try await modify(server, #"{"operationType": "forceUpdate", "record": {"recordName": "n1", "recordType": "Note", "fields": {"body": {"value": "back"}}}}"#)
        #expect(try fields(server, "n1").keys.sorted() == ["body", "title"])
        _ = try await modify(server, #"{"operationType": "forceUpdate", "record": {"recordName": "n2", "recordType": "Note", "fields": {"title": {"value": "new"}}}}"#)
        _ = try await modify(server, #"{"operationType": "forceReplace", "record": {"recordName": "n1", "recordType": "Note", "fields": {"body": {"value": "x"}}}}"#)
        #expect(try fields(server, "n1").keys.sorted() == ["body"])
        // delete checks the tag; forceDelete does not.
        let current = try server.store.database(.private).record(for: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes"))).recordChangeTag!
        let badDelete = try await modify(server, #"{"operationType": "delete", "record": {"recordName": "n1", "recordChangeTag": "nope"}}"#)
        #expect(badDelete.records.first?["serverErrorCode"] as? String == "CONFLICT")
        let deleted = try await modify(server, #"{"operationType": "delete", "record": {"recordName": "n1", "recordChangeTag": "\#(current)"}}, {"operationType": "forceDelete", "record": {"recordName": "n2"}}"#)
        #expect(deleted.records.map { $0["deleted"] as? Bool } == [true, true])
        let gone = try await modify(server, #"{"operationType": "delete", "record": {"recordName": "n1", "recordChangeTag": "x"}}"#)
        #expect(gone.records.first?["serverErrorCode"] as? String == "NOT_FOUND")
    }

    @Test func atomicBatchesFailWhole() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        try server.store.database(.private).modifyRecordZones(saving: [ZoneID(zoneName: "Notes")])
        _ = try await modify(server, #"{"operationType": "create", "record": {"recordName": "a", "recordType": "Note"}}"#)
        let batch = try await modify(server, #"{"operationType": "create", "record": {"recordName": "b", "recordType": "Note"}}, {"operationType": "create", "record": {"recordName": "a", "recordType": "Note"}}"#, atomic: true)
        #expect(batch.status == 200)
        #expect(batch.records.map { $0["serverErrorCode"] as? String } == ["ATOMIC_ERROR", "CONFLICT"])
        #expect(throws: CloudKitError.self) { try server.store.database(.private).record(for: RecordID(recordName: "b", zoneID: ZoneID(zoneName: "Notes"))) }
        let mixed = try await modify(server, #"{"operationType": "create", "record": {"recordName": "c", "recordType": "Note"}}, {"operationType": "forceUpdate", "record": {"recordName": "a", "recordType": "Note"}}"#, atomic: true)
        #expect(mixed.status == 400)
    }

    /// Another writer changes the record between the request's arrival and its write (the
    /// fault plan's other device saves just before the engine does): a replace still leaves
    /// exactly its fields, since the fields to clear are worked out in the write itself.
    @Test func aReplaceClearsWhatAnotherWriterAddedJustBefore() async throws {
        let server = try await serverWithNotes()
        defer { Task { await server.stop() } }
        _ = try await modify(server, #"{"operationType": "create", "record": {"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}, "body": {"value": "text"}}}}"#)
        try server.store.addFault(Fault(kind: .serverRecordChanged, recordNames: ["n1"], otherDeviceFields: #"{"extra": {"value": "phone"}}"#))
        let replaced = try await modify(server, #"{"operationType": "forceReplace", "record": {"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "only"}}}}"#)
        #expect(replaced.records.first?["serverErrorCode"] == nil, "\(replaced.json)")
        #expect(try server.store.faults().first?.fired == 1)
        #expect(try fields(server, "n1") == ["title": .string("only")])
    }

    /// Operations of every type in one non-atomic request are one engine call: the fault plan
    /// sees one modify.
    @Test func aRequestMixingOperationTypesIsOneWrite() async throws {
        let server = try await serverWithNotes()
        defer { Task { await server.stop() } }
        let made = try await modify(server, #"{"operationType": "create", "record": {"recordName": "a", "recordType": "Note"}}, {"operationType": "create", "record": {"recordName": "b", "recordType": "Note", "fields": {"body": {"value": "x"}}}}, {"operationType": "create", "record": {"recordName": "c", "recordType": "Note"}}"#)
        let counter = try server.store.addFault(Fault(kind: .zoneBusy, operation: .modify, trigger: .after(1000)))
        let mixed = try await modify(server, [
            #"{"operationType": "create", "record": {"recordName": "d", "recordType": "Note"}}"#,
            #"{"operationType": "forceUpdate", "record": {"recordName": "a", "recordType": "Note", "fields": {"title": {"value": "A"}}}}"#,
            #"{"operationType": "forceReplace", "record": {"recordName": "b", "recordType": "Note", "fields": {"title": {"value": "B"}}}}"#,
            #"{"operationType": "delete", "record": {"recordName": "c", "recordChangeTag": "\#(tag(made, 2))"}}"#,
        ].joined(separator: ", "))
        #expect(mixed.records.map { $0["serverErrorCode"] as? String } == [nil, nil, nil, nil], "\(mixed.json)")
        #expect(mixed.records[3]["deleted"] as? Bool == true)
        #expect(try fields(server, "b") == ["title": .string("B")])
        #expect(try server.store.faults().first { $0.id == counter.id }?.seen == 1)
    }

    /// A delete's stale tag is one of the request's failures like any other: atomically, the
    /// rest of the zone's operations fail with it.
    @Test func anAtomicRequestFailsWholeOnAStaleDelete() async throws {
        let server = try await serverWithNotes()
        defer { Task { await server.stop() } }
        try server.store.database(.private).save(Record(recordType: "Note", recordID: RecordID(recordName: "a", zoneID: ZoneID(zoneName: "Notes"))))
        let createAndStaleDelete = #"{"operationType": "create", "record": {"recordName": "b", "recordType": "Note"}}, {"operationType": "delete", "record": {"recordName": "a", "recordChangeTag": "stale"}}"#
        let codes = try await modify(server, createAndStaleDelete, atomic: true).records.map { $0["serverErrorCode"] as? String }
        #expect(codes == ["ATOMIC_ERROR", "CONFLICT"])
        #expect(throws: CloudKitError.self) { try fields(server, "b") }
        #expect(try fields(server, "a").isEmpty)
    }

    @Test func badOperationsAreNamed() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let cases: [(String, String)] = [
            (#"{"operationType": "explode", "record": {"recordName": "a"}}"#, "operations[0].operationType"),
            (#"{"operationType": "update", "record": {"recordName": "a", "recordType": "Note"}}"#, "recordChangeTag"),
            (#"{"operationType": "create", "record": {"recordName": "a", "recordType": "Note", "fields": {"n": {"value": "x", "type": "INT64"}}}}"#, "fields.n.value"),
            (#"{"operationType": "create", "record": {"recordName": "a", "recordType": "Note"}}, {"operationType": "forceDelete", "record": {"recordName": "a"}}"#, "more than one operation"),
        ]
        for (operations, reason) in cases {
            let reply = try await modify(server, operations, zone: "_defaultZone")
            #expect(reply.status == 400, "\(operations)")
            #expect((reply["reason"] as? String)?.contains(reason) == true, "\(reply.json)")
        }
        let tooMany = (0...200).map { #"{"operationType": "forceDelete", "record": {"recordName": "r\#($0)"}}"# }.joined(separator: ",")
        #expect(try await modify(server, tooMany, zone: "_defaultZone").status == 400)
    }
}
