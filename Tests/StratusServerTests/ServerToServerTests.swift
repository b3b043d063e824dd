import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusCloud
import StratusEngine
import StratusTestSupport
import Testing

/// Server-to-server keys, signed by OpenSSL (a signer that shares no code with the server),
/// following Apple's recipe: ECDSA P-256 SHA-256 over `DATE:BASE64(SHA256(BODY)):PATH`.
@Suite(.serialized) struct ServerToServerTests {
    private static func openssl(_ arguments: [String], input: Data? = nil) throws -> Data {
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, stdin: input)
        try #require(outcome.status == 0, "openssl \(arguments) failed")
        return outcome.stdoutData
    }

    /// A key pair made by OpenSSL, registered with the store.
    private func key(_ server: ServerHarness) throws -> (id: String, privateKey: String) {
        let privateKey = server.directory.appendingPathComponent("eckey-\(UUID().uuidString).pem").path
        _ = try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", privateKey])
        let publicKey = String(decoding: try Self.openssl(["ec", "-in", privateKey, "-pubout"]), as: UTF8.self)
        return (try server.store.addServerKey(publicKeyPEM: publicKey, container: ServerHarness.container, user: server.store.owner), privateKey)
    }

    private func signedRequest(_ server: ServerHarness, database: String, operation: String, body: String?, keyID: String, privateKey: String,
                               date: Date = Date(), emptyHash: Bool = false, tamper: Bool = false,
                               query: String? = nil, signingQuery: Bool = false) throws -> URLRequest {
        let bare = "/database/1/\(ServerHarness.container)/development/\(database)/\(operation)"
        let sent = bare + (query.map { "?" + $0 } ?? "")
        let path = signingQuery ? sent : bare
        let formatter = ISO8601DateFormatter()
        let stamp = formatter.string(from: date)
        let bodyData = Data((body ?? "").utf8)
        let hash = emptyHash ? "" : try Self.openssl(["dgst", "-sha256", "-binary"], input: bodyData).base64EncodedString()
        let message = "\(stamp):\(hash):\(path)" + (tamper ? "x" : "")
        let signature = try Self.openssl(["dgst", "-sha256", "-sign", privateKey], input: Data(message.utf8)).base64EncodedString()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(sent)")!)
        request.httpMethod = body == nil ? "GET" : "POST"
        if let body { request.httpBody = Data(body.utf8) }
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.setValue(keyID, forHTTPHeaderField: "X-Apple-CloudKit-Request-KeyID")
        request.setValue(stamp, forHTTPHeaderField: "X-Apple-CloudKit-Request-ISO8601Date")
        request.setValue(signature, forHTTPHeaderField: "X-Apple-CloudKit-Request-SignatureV1")
        return request
    }

    private func status(_ request: URLRequest) async throws -> (Int, [String: Any]) {
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    @Test func signedRequestsReachThePublicDatabaseAsTheKeysDeveloper() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let (keyID, privateKey) = try key(server)
        let body = #"{"operations": [{"operationType": "forceUpdate", "record": {"recordName": "pub-1", "recordType": "Notice", "fields": {"text": {"value": "signed"}}}}]}"#
        let (saved, json) = try await status(try signedRequest(server, database: "public", operation: "records/modify", body: body, keyID: keyID, privateKey: privateKey))
        #expect(saved == 200, "\(json)")
        let record = try #require((json["records"] as? [[String: Any]])?.first)
        #expect((record["created"] as? [String: Any])?["userRecordName"] as? String == server.store.owner)
        // A GET has no body: the hash of nothing, or an empty hash as MistKit sends.
        #expect(try await status(try signedRequest(server, database: "public", operation: "zones/list", body: nil, keyID: keyID, privateKey: privateKey)).0 == 200)
        #expect(try await status(try signedRequest(server, database: "public", operation: "zones/list", body: nil, keyID: keyID, privateKey: privateKey, emptyHash: true)).0 == 200)
    }

    /// CloudKit JS (v1 and v2) signs the path with its query string; MistKit the path alone.
    @Test func aSignatureOverThePathWithItsQueryStringPassesAsCloudKitJSSendsIt() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let (keyID, privateKey) = try key(server)
        _ = try server.store.database(.public).modifyRecords(saving: [Record(recordType: "Notice", recordID: RecordID(recordName: "n"))]).savedRecords()
        let body = #"{"query":{"recordType":"Notice"},"zoneID":{"zoneName":"_defaultZone"}}"#
        let parameters = "ckjsBuildVersion=2314ProjectDev27&ckjsVersion=2.6.4&clientId=5f4c2a47-0f4d-4c8e-9a51-2a0b6f2f6c11"
        for signingQuery in [true, false] {
            let request = try signedRequest(server, database: "public", operation: "records/query", body: body, keyID: keyID, privateKey: privateKey,
                                            query: parameters, signingQuery: signingQuery)
            let (code, json) = try await status(request)
            #expect(code == 200, "signed \(signingQuery ? "with" : "without") the query: \(json)")
        }
        // A signature over another query string is not one over this request.
        var other = try signedRequest(server, database: "public", operation: "records/query", body: body, keyID: keyID, privateKey: privateKey,
                                      query: parameters, signingQuery: true)
        other.url = URL(string: other.url!.absoluteString.replacingOccurrences(of: "2.6.4", with: "2.6.5"))
        #expect(try await status(other).0 == 401)
    }

    @Test func badSignaturesDatesKeysAndDatabasesAreRefused() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let (keyID, privateKey) = try key(server)
        let query = #"{"query": {"recordType": "Users"}}"#
        let cases: [(URLRequest, String)] = [
            (try signedRequest(server, database: "public", operation: "records/query", body: query, keyID: keyID, privateKey: privateKey, tamper: true), "does not match"),
            (try signedRequest(server, database: "public", operation: "records/query", body: query, keyID: keyID, privateKey: privateKey,
                               date: Date().addingTimeInterval(-11 * 60)), "ten minutes"),
            (try signedRequest(server, database: "public", operation: "records/query", body: query, keyID: "0123456789abcdef", privateKey: privateKey), "Unknown server-to-server key"),
            (try signedRequest(server, database: "private", operation: "zones/list", body: nil, keyID: keyID, privateKey: privateKey), "public database only"),
        ]
        for (request, reason) in cases {
            let (code, json) = try await status(request)
            #expect(code == 401, "\(reason): \(json)")
            #expect(json["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")
            #expect((json["reason"] as? String)?.contains(reason) == true, "\(json)")
        }
        // Another body under the same signature is refused.
        var swapped = try signedRequest(server, database: "public", operation: "records/query", body: query, keyID: keyID, privateKey: privateKey)
        swapped.httpBody = Data(#"{"query": {"recordType": "Other"}}"#.utf8)
        #expect(try await status(swapped).0 == 401)
    }
}
