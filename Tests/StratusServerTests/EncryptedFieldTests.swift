import Foundation
import StratusCloud
import StratusModel
import StratusEngine
import StratusTestSupport
import Testing

/// A field declared `ENCRYPTED` over Web Services, as iCloud answers a standard-protection
/// account: the value travels as plain text with `"isEncrypted": true` both ways, and four
/// requests are refused.
@Suite struct EncryptedFieldTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Diary (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE SORTABLE,
                secret ENCRYPTED STRING
            );
        """

    private func server() async throws -> ServerHarness {
        let server = try await ServerHarness()
        _ = try server.store.importSchema(text: Self.schema)
        return server
    }

    @Test func anEncryptedValueIsSavedAndEchoedWithItsFlagOnModifyLookupAndQuery() async throws {
        let server = try await server()
        defer { Task { await server.stop() } }
        let saved = try await server.call("private", "records/modify", #"""
            {"operations":[{"operationType":"create","record":{"recordType":"Diary","recordName":"d1",
             "fields":{"title":{"value":"Monday","type":"STRING"},"secret":{"value":"hush","type":"STRING","isEncrypted":true}}}}]}
            """#)
        #expect(saved.status == 200, "\(saved.json)")
        let fields = try #require(saved.records.first?["fields"] as? [String: [String: Any]], "\(saved.json)")
        #expect(fields["secret"]?["value"] as? String == "hush")
        #expect(fields["secret"]?["isEncrypted"] as? Bool == true)
        #expect(fields["title"]?["isEncrypted"] == nil)

        let lookup = try await server.call("private", "records/lookup", #"{"records":[{"recordName":"d1"}]}"#)
        #expect((lookup.records.first?["fields"] as? [String: [String: Any]])?["secret"]?["isEncrypted"] as? Bool == true, "\(lookup.json)")
        let query = try await server.call("private", "records/query", #"{"query":{"recordType":"Diary"}}"#)
        #expect((query.records.first?["fields"] as? [String: [String: Any]])?["secret"]?["isEncrypted"] as? Bool == true, "\(query.json)")
        // The store keeps the plain value.
        let stored = try server.store.database(.private).record(for: RecordID(recordName: "d1"))
        #expect(stored["secret"] == FieldValue.string("hush"))
    }

    @Test func aValueForAnEncryptedFieldWithoutTheFlagOrTypeIsRefused() async throws {
        let server = try await server()
        defer { Task { await server.stop() } }
        let plain = try await server.call("private", "records/modify",
                                          #"{"operations":[{"operationType":"create","record":{"recordType":"Diary","fields":{"secret":{"value":"hush","type":"STRING"}}}}]}"#)
        #expect(plain.status == 400, "\(plain.json)")
        #expect(plain["serverErrorCode"] as? String == "BAD_REQUEST")
        let reason = try #require(plain["reason"] as? String)
        #expect(reason.contains("invalid attempt to set value type STRING for field 'secret'") && reason.contains("ENCRYPTED_STRING"), "\(reason)")

        let untyped = try await server.call("private", "records/modify",
                                            #"{"operations":[{"operationType":"create","record":{"recordType":"Diary","fields":{"secret":{"value":"hush","isEncrypted":true}}}}]}"#)
        #expect(untyped.status == 400, "\(untyped.json)")
        #expect((untyped["reason"] as? String)?.contains("value type ENCRYPTED_BYTES") == true, "\(untyped.json)")
        #expect(try server.store.database(.private).records(matching: Query(recordType: "Diary")).records.isEmpty)
    }

    @Test func theFlagOnAPlainFieldIsRefused() async throws {
        let server = try await server()
        defer { Task { await server.stop() } }
        let reply = try await server.call("private", "records/modify",
                                          #"{"operations":[{"operationType":"create","record":{"recordType":"Diary","fields":{"title":{"value":"Monday","type":"STRING","isEncrypted":true}}}}]}"#)
        #expect(reply.status == 400, "\(reply.json)")
        #expect((reply["reason"] as? String)?.contains("Attempt to save encrypted data in non encrypted field type") == true, "\(reply.json)")
    }

    @Test func aFilterOnAnEncryptedFieldIsRefusedNamingItsValueType() async throws {
        let server = try await server()
        defer { Task { await server.stop() } }
        let reply = try await server.call("private", "records/query", #"""
            {"query":{"recordType":"Diary","filterBy":[{"fieldName":"secret","comparator":"EQUALS","fieldValue":{"value":"hush","type":"STRING"}}]}}
            """#)
        #expect(reply.status == 400, "\(reply.json)")
        #expect(reply["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect((reply["reason"] as? String)?.contains("Field 'secret' has a value type of ENCRYPTED_STRING and cannot be queried using filter type EQUALS") == true,
                "\(reply.json)")
    }

    @Test func theEngineRefusesAFilterOnAnEncryptedFieldToEveryFrontEnd() throws {
        let store = try TemporaryStore()
        _ = try store.store.importSchema(text: Self.schema)
        #expect(throws: CloudKitError.self) {
            _ = try store.store.database(.private).records(matching: Query(recordType: "Diary", predicateFormat: "secret == 'hush'"))
        }
    }

    @Test func anEncryptedValueInThePublicDatabaseIsRefusedPerRecord() async throws {
        let server = try await server()
        defer { Task { await server.stop() } }
        let reply = try await server.call("public", "records/modify", #"""
            {"operations":[{"operationType":"create","record":{"recordType":"Diary","recordName":"p1","fields":{"secret":{"value":"hush","type":"STRING","isEncrypted":true}}}},
                           {"operationType":"create","record":{"recordType":"Diary","recordName":"p2","fields":{"title":{"value":"open","type":"STRING"}}}}]}
            """#)
        #expect(reply.status == 200, "\(reply.json)")
        let first = try #require(reply.records.first { $0["recordName"] as? String == "p1" }, "\(reply.json)")
        #expect(first["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect((first["reason"] as? String)?.contains("encrypted fields are not supported in the public database") == true, "\(first)")
        #expect(reply.records.contains { $0["recordName"] as? String == "p2" && $0["serverErrorCode"] == nil })
    }
}
