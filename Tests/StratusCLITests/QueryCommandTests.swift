import Foundation
import Testing

@Suite(.serialized) struct QueryCommandTests {
    private func seeded() throws -> StratusCLI {
        let cli = try StratusCLI()
        try cli.run(["zones", "create", "Shop"])
        let lines = (0..<30).map { index in
            #"{"recordName": "item\#(index)", "recordType": "Item", "fields": {"price": {"value": \#(index % 10)}, "name": {"value": "Item \#(index) 東京"}, "tags": {"value": ["red", "tag\#(index % 3)"], "type": "STRING_LIST"}}}"#
        }
        #expect(try cli.run(["save", "--zone", "Shop"], stdin: lines.joined(separator: "\n")).status == 0)
        return cli
    }

    @Test func queryPagesWithCursorsAndFollowsThemWithAll() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let first = try cli.json(["query", "--zone", "Shop", "--type", "Item", "--filter", "price >= %@", "--arg", "int:5", "--sort", "price:desc", "--limit", "4"])
        let records = (first["records"] as? [[String: Any]]) ?? []
        #expect(records.count == 4)
        let marker = try #require(first["continuationMarker"] as? String)
        let prices = records.compactMap { (($0["fields"] as? [String: Any])?["price"] as? [String: Any])?["value"] as? Int }
        #expect(prices == [9, 9, 9, 8])
        let next = try cli.json(["query", "--zone", "Shop", "--type", "Item", "--cursor", marker, "--limit", "100"])
        #expect((next["records"] as? [Any])?.count == 11)
        #expect(next["continuationMarker"] is NSNull)
        let all = try cli.json(["query", "--zone", "Shop", "--type", "Item", "--filter", "tags CONTAINS 'RED'", "--limit", "7", "--all", "--keys", "price"])
        #expect((all["records"] as? [Any])?.count == 30)
        let tokens = try cli.json(["query", "--zone", "Shop", "--type", "Item", "--filter", "self CONTAINS '東京'"])
        #expect((tokens["records"] as? [Any])?.count == 30)
    }

    @Test func invalidPredicatesShowACaretAndExitOne() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let refused = try cli.run(["query", "--zone", "Shop", "--type", "Item", "--filter", "price > 1 OR price < 0"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("price > 1 OR price < 0\n          ^~"))
        #expect(refused.stderr.contains("OR"))
        let unknown = try cli.run(["query", "--zone", "Shop", "--type", "Item", "--filter", "prize > 1"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("prize"))
        #expect(try cli.run(["query", "--type", "Item", "--arg", "nonsense"]).status == 2)
    }

    @Test func checkReportsValidityOffsetAndLength() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let valid = try cli.run(["check", "name = %@ AND price BETWEEN {1, 5}", "--arg", "string:Bob"])
        #expect(valid.status == 0)
        #expect(valid.stdout.contains(#"name == "Bob""#))
        let json = try cli.run(["check", "'東京' ENDSWITH name", "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["offset"] as? Int == 5)
        #expect(error["length"] as? Int == 8)
        let schema = try cli.run(["check", "price BEGINSWITH 'a'", "--type", "Item", "--zone", "Shop"])
        #expect(schema.status == 1)
        #expect(schema.stderr.contains("price"))
        let syntax = try cli.run(["check", "name == "])
        #expect(syntax.status == 1)
        #expect(syntax.stderr.contains("expected"))
    }
}
