import Foundation
@testable import StratusEngine
import StratusModel
import Testing
import StratusCloud

@Suite struct RecordCSVTests {
    @Test func cellsQuoteOnlyWhatTheyMustAndKeepEmptyApartFromMissing() throws {
        #expect(CSVText.line(["a", nil, "", "x,y", "say \"hi\"", "two\nlines", " pad", "東京 🗼"])
                == "a,,\"\",\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\" pad\",東京 🗼\r\n")
        let rows = try CSVText.rows("a,,\"\",\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\" pad\",東京 🗼\r\n\r\nb\n")
        #expect(rows == [["a", nil, "", "x,y", "say \"hi\"", "two\nlines", " pad", "東京 🗼"], ["b"]])
        #expect(try CSVText.rows("\u{FEFF}x,y\n1,2") == [["x", "y"], ["1", "2"]])
    }

    @Test func syntaxErrorsNameTheRowAndColumn() {
        #expect(throws: CSVText.SyntaxError(row: 2, column: 2, message: "a quoted cell is not closed before the end of the text")) {
            try CSVText.rows("a,b\nc,\"open")
        }
        #expect(throws: CSVText.SyntaxError.self) { try CSVText.rows("a,\"b\"c\n") }
        #expect(throws: CSVText.SyntaxError.self) { try CSVText.rows("a,b\"c\n") }
    }

    private static let everyType: Record = {
        var record = Record(recordType: "Thing", recordID: RecordID(recordName: "r,1", zoneID: ZoneID(zoneName: "Z")))
        record["text"] = .string("東京 🗼, \"quoted\"\nline")
        record["empty"] = .string("")
        record["int"] = .int64(Int64.min)
        record["double"] = .double(-0.000_123_4)
        record["when"] = .timestamp(Date(timeIntervalSince1970: 1_714_521_600.123))
        record["bytes"] = .bytes(Data([0, 1, 254, 255]))
        record["ref"] = .reference(Reference(recordName: "other"))
        record["owner"] = .reference(Reference(recordName: "parent", action: .deleteSelf))
        record["where"] = .location(Location(latitude: 35.68, longitude: 139.77))
        record["fix"] = .location(Location(latitude: -33.9, longitude: 151.2, altitude: 12.5, horizontalAccuracy: 3))
        record["photo"] = .asset(Asset(fileChecksum: "abc123", size: 42))
        record["tags"] = .list(.string, [.string("a,b"), .string("東京")])
        record["days"] = .list(.timestamp, [.timestamp(Date(timeIntervalSince1970: 0))])
        record.normalizeFields()
        return record
    }()

    private static var schema: RecordTypeSchema {
        var fields: [String: SchemaField] = [:]
        for (name, value) in everyType.fields { fields[name] = SchemaField(name: name, type: value.type, indexes: []) }
        fields["missing"] = SchemaField(name: "missing", type: .int64, indexes: [])
        return RecordTypeSchema(name: "Thing", fields: fields)
    }

    @Test func everyTypeRoundTrips() throws {
        let csv = try RecordCSV(types: [Self.schema])
        let text = csv.headerLine + csv.line(Self.everyType)
        #expect(text.hasPrefix("recordName,recordType,zoneName,bytes:BYTES,days:TIMESTAMP_LIST,double:DOUBLE,empty:STRING,fix:LOCATION,"))
        #expect(text.contains(",\"35.68,139.77\"\r\n"))
        #expect(text.contains(",2024-05-01T00:00:00.123Z,"))
        let read = try RecordCSV.records(from: text, recordType: nil, zoneID: .default) { _ in nil }
        #expect(read.count == 1)
        let record = try #require(read.first)
        #expect(record.recordID == Self.everyType.recordID)
        for (name, value) in Self.everyType.fields { #expect(record[name] == value, "\(name)") }
        #expect(record.fields.count == Self.everyType.fields.count)
        #expect(record["missing"] == nil)
    }

    @Test func headersWithoutTypesTakeTheSchemasAndRowsTheGivenType() throws {
        let text = "recordName,nights,title\nn1,3,Lisbon\nn2,,\"\"\n"
        let schema = RecordTypeSchema(name: "Trip", fields: ["nights": SchemaField(name: "nights", type: .int64, indexes: [])])
        let read = try RecordCSV.records(from: text, recordType: "Trip", zoneID: ZoneID(zoneName: "Z")) { $0 == "Trip" ? schema : nil }
        #expect(read.map(\.recordType) == ["Trip", "Trip"])
        #expect(read[0]["nights"] == .int64(3))
        #expect(read[0]["title"] == .string("Lisbon"))
        #expect(read[1]["nights"] == nil)
        #expect(read[1]["title"] == .string(""))
        #expect(read[1].recordID.zoneID == ZoneID(zoneName: "Z"))
    }

    @Test func problemsNameTheRowAndColumn() {
        func problem(_ text: String, type: String? = "T") -> RecordCSV.Problem? {
            do { _ = try RecordCSV.records(from: text, recordType: type, zoneID: .default) { _ in nil } } catch let error as RecordCSV.Problem {
                return error
            } catch { return nil }
            return nil
        }
        #expect(problem("recordName,n:INT64\na,1\nb,x\n")?.description == "row 3, column n: 'x' is not a whole number (INT64)")
        #expect(problem("recordName,n:WHAT\n")?.column == "n:WHAT")
        #expect(problem("recordName,n\na,1,2\n")?.row == 2)
        #expect(problem("recordName,n\n", type: nil)?.column == "recordType")
        #expect(problem("recordName,n,n\n")?.message == "the column appears twice")
        #expect(problem("recordName,tags:STRING_LIST\na,[1\n")?.row == 2)
    }

    @Test func aFieldWithTwoTypesCannotShareAColumn() {
        let a = RecordTypeSchema(name: "A", fields: ["x": SchemaField(name: "x", type: .string, indexes: [])])
        let b = RecordTypeSchema(name: "B", fields: ["x": SchemaField(name: "x", type: .int64, indexes: [])])
        #expect(throws: RecordCSV.Problem.self) { try RecordCSV(types: [a, b]) }
    }
}
