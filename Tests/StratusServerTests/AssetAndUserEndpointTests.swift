import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusEngine
import Testing

@Suite struct AssetAndUserEndpointTests {
    @Test func anAssetGoesUpThroughAnUploadURLAndComesBackThroughItsDownloadURL() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let tokens = try await server.call("private", "assets/upload", #"{"tokens": [{"recordName": "photo-1", "recordType": "Photo", "fieldName": "image"}]}"#)
        #expect(tokens.status == 200)
        let token = try #require((tokens["tokens"] as? [[String: Any]])?.first)
        #expect(token["recordName"] as? String == "photo-1")
        let url = try #require(token["url"] as? String)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/assets/upload/"))

        let bytes = Data("東京 🗼 picture bytes".utf8) + Data((0..<2000).map { UInt8($0 % 251) })
        var upload = URLRequest(url: URL(string: url)!)
        upload.httpMethod = "POST"
        upload.httpBody = bytes
        upload.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (uploaded, _) = try await URLSession.shared.data(for: upload)
        let singleFile = try #require((try JSONSerialization.jsonObject(with: uploaded) as? [String: Any])?["singleFile"] as? [String: Any])
        #expect(singleFile["size"] as? Int == bytes.count)
        for key in ["wrappingKey", "fileChecksum", "receipt", "referenceChecksum"] { #expect(singleFile[key] is String, "\(key)") }
        // The URL is good for one upload.
        let again = try await server.send(url, body: "x", method: "POST")
        #expect(again.status == 401)

        let value = String(decoding: try JSONSerialization.data(withJSONObject: singleFile), as: UTF8.self)
        let saved = try await server.call("private", "records/modify",
                                          #"{"operations": [{"operationType": "create", "record": {"recordName": "photo-1", "recordType": "Photo", "fields": {"image": {"value": \#(value)}}}}], "desiredKeys": []}"#)
        #expect(saved.records.first?["serverErrorCode"] == nil, "\(saved.json)")
        let fetched = try await server.call("private", "records/lookup", #"{"records": [{"recordName": "photo-1"}]}"#)
        let image = try #require(((fetched.records.first?["fields"] as? [String: Any])?["image"] as? [String: Any])?["value"] as? [String: Any])
        let download = try #require(image["downloadURL"] as? String)
        let (content, response) = try await URLSession.shared.data(from: URL(string: download)!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(content == bytes)
        let missing = try await server.send("http://127.0.0.1:\(server.port)/assets/download/\(ServerHarness.container)/development/00ff", body: nil, method: "GET")
        #expect(missing.status == 404)
        let tooBig = try await ServerHarness(maximumBodyBytes: 4096)
        defer { Task { await tooBig.stop() } }
        #expect(try await tooBig.call("private", "assets/upload", #"{"tokens": [{}]}"#).status == 400)
    }

    @Test func theUserEndpointsNameTheSignedInUser() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let current = try await server.call("public", "users/current")
        #expect(current.status == 200)
        #expect(current["userRecordName"] as? String == server.store.owner)
        let caller = try await server.call("public", "users/caller")
        let users = try #require(caller["users"] as? [[String: Any]])
        #expect(users.first?["userRecordName"] as? String == server.store.owner)
        let anonymous = try await server.call("public", "users/current", webAuthToken: .some(nil))
        #expect(anonymous.status == 421)
        #expect(try await server.call("shared", "users/caller").status == 400)
    }
}

@Suite struct UserLookupAndNumberTests {
    @Test func lookupsFindTheStoresUserAndNoOneElse() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        let byID = try await server.call("public", "users/lookup/id", #"{"users": [{"userRecordName": "\#(server.store.owner)"}, {"userRecordName": "_nobody"}]}"#)
        let users = try #require(byID["users"] as? [[String: Any]])
        #expect(users.compactMap { $0["userRecordName"] as? String } == [server.store.owner])
        let discover = try await server.call("public", "users/discover", #"{"lookupInfos": [{"emailAddress": "ada@example.com"}]}"#)
        #expect((discover["users"] as? [Any])?.isEmpty == true)
        #expect(try await server.call("private", "users/discover", "{}").status == 400)
    }

    @Test func numbersAsStringsSendsNumbersAsText() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        _ = try await server.call("private", "records/modify", #"{"operations": [{"operationType": "forceUpdate", "record": {"recordName": "big", "recordType": "T", "fields": {"n": {"value": 9007199254740993, "type": "INT64"}, "d": {"value": 2.5}, "ns": {"value": [1, 2], "type": "INT64_LIST"}, "s": {"value": "x"}}}}]}"#)
        let plain = try await server.call("private", "records/lookup", #"{"records": [{"recordName": "big"}]}"#)
        #expect(((plain.records.first?["fields"] as? [String: Any])?["n"] as? [String: Any])?["value"] is NSNumber)
        let text = try await server.call("private", "records/lookup", #"{"records": [{"recordName": "big"}], "numbersAsStrings": true}"#)
        let fields = try #require(text.records.first?["fields"] as? [String: Any])
        #expect((fields["n"] as? [String: Any])?["value"] as? String == "9007199254740993")
        #expect((fields["d"] as? [String: Any])?["value"] as? String == "2.5")
        #expect((fields["ns"] as? [String: Any])?["value"] as? [String] == ["1", "2"])
        #expect((fields["s"] as? [String: Any])?["value"] as? String == "x")
    }
}
