import Foundation
import StratusEngine
import StratusModel
import StratusPredicates
import StratusSQLite
import StratusCloud
import StratusCKWS

/// A broken promise found while fuzzing (not a crash, but wrong): a canonical form that does not
/// parse back, JSON that does not survive a round trip, an error of the wrong kind.
public struct FuzzFinding: Error, CustomStringConvertible {
    public var target: String
    public var message: String
    public var description: String { "\(target): \(message)" }
}

/// The fuzz targets: each takes arbitrary bytes and must neither crash nor break a promise.
///
/// Shared by the libFuzzer executables under `Fuzz/` (`scripts/fuzz`) and the seeded, bounded
/// runs in the test suite (`StratusReliabilityTests`).
public enum FuzzTargets {
    public static let names = ["predicate", "record-json", "tokens", "schema"]

    public static func run(_ target: String, _ data: [UInt8]) throws {
        switch target {
        case "predicate": try predicate(data)
        case "record-json": try recordJSON(data)
        case "tokens": try tokens(data)
        case "schema": try schema(data)
        default: preconditionFailure("unknown fuzz target \(target)")
        }
    }

    // MARK: - Predicate parser and checker

    static let itemSchema = RecordTypeSchema(name: "Item", fields: [
        "name": SchemaField(name: "name", type: FieldType(.string), indexes: [.queryable, .sortable, .searchable]),
        "count": SchemaField(name: "count", type: FieldType(.int64), indexes: [.queryable, .sortable]),
        "price": SchemaField(name: "price", type: FieldType(.double), indexes: [.queryable]),
        "when": SchemaField(name: "when", type: FieldType(.timestamp), indexes: [.queryable, .sortable]),
        "tags": SchemaField(name: "tags", type: FieldType(.string, isList: true), indexes: [.queryable]),
        "owner": SchemaField(name: "owner", type: FieldType(.reference), indexes: [.queryable]),
        "place": SchemaField(name: "place", type: FieldType(.location), indexes: [.queryable]),
        "blob": SchemaField(name: "blob", type: FieldType(.bytes), indexes: []),
    ])

    struct SampleRecord: FilterableRecord {
        var fields: [String: FieldValue]
        func value(for key: FieldKey) -> FieldValue? {
            switch key {
            case .custom(let name, _): return fields[name]
            case .system: return .timestamp(Date(timeIntervalSince1970: 1_700_000_000))
            }
        }
        var customFieldNames: [String] { fields.keys.sorted() }
    }

    static let samples = [
        SampleRecord(fields: [:]),
        SampleRecord(fields: [
            "name": .string("Grüße straße"), "count": .int64(-3), "price": .double(2.5),
            "when": .timestamp(Date(timeIntervalSince1970: 0)), "tags": .list(.string, [.string("red"), .string("")]),
            "owner": .reference(Reference(recordName: "u1")), "place": .location(Location(latitude: 37.3, longitude: -122)),
        ]),
    ]

    /// Input: the format, then (after a NUL byte) one `TYPE:VALUE` argument per line.
    public static func predicate(_ data: [UInt8]) throws {
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let format = String(decoding: parts[0], as: UTF8.self)
        var arguments: [PredicateArgument] = []
        if parts.count > 1 {
            for line in String(decoding: parts[1], as: UTF8.self).split(separator: "\n") {
                if let argument = try? PredicateArgument(parsing: String(line)) { arguments.append(argument) }
            }
        }
        let sorts = [QuerySort("count", ascending: data.count % 2 == 0)]
        for schema in [itemSchema, nil] {
            let analysis = PredicateCompiler.analyze(format: format, arguments: arguments, recordType: "Item",
                                                     schema: schema, sorts: schema == nil ? [] : sorts,
                                                     now: Date(timeIntervalSince1970: 1_700_000_000))
            for diagnostic in analysis.diagnostics {
                if let range = diagnostic.range, range.offset < 0 || range.length < 0 || range.offset + range.length > format.unicodeScalars.count + 1 {
                    throw FuzzFinding(target: "predicate", message: "diagnostic range \(range) outside the \(format.unicodeScalars.count)-scalar source \(format.debugDescription)")
                }
                _ = diagnostic.message
            }
            if let canonical = analysis.canonical {
                // The canonical form parses back to itself.
                let again: PredicateNode
                do {
                    again = try PredicateParser.parse(canonical)
                } catch {
                    throw FuzzFinding(target: "predicate", message: "canonical form \(canonical.debugDescription) of \(format.debugDescription) does not parse: \(error)")
                }
                if again.canonicalFormat != canonical {
                    throw FuzzFinding(target: "predicate", message: "canonical form of \(format.debugDescription) is not stable: \(canonical.debugDescription) -> \(again.canonicalFormat.debugDescription)")
                }
            }
            if let query = analysis.query {
                for sample in samples { _ = query.filter.matches(sample) }
            }
        }
    }

    // MARK: - Record JSON

    /// Input: JSON text (one document, an array, or several, as `stratus save` reads).
    public static func recordJSON(_ data: [UInt8]) throws {
        let text = String(decoding: data, as: UTF8.self)
        let documents: [JSONValue]
        do {
            documents = try JSONParser.parseSequence(text)
        } catch {
            _ = error.description
            return
        }
        let zone = ZoneID(zoneName: "fuzz")
        for document in documents {
            // What the writer prints parses back to the same value.
            let written = JSONWriter.string(document)
            guard let reparsed = try? JSONParser.parse(written), reparsed == document else {
                throw FuzzFinding(target: "record-json", message: "JSON does not survive writing: \(written.prefix(300))")
            }
            let objects: [JSONValue]
            if case .array(let items) = document { objects = items } else { objects = [document] }
            for object in objects {
                let record: Record
                do {
                    record = try RecordJSON.decode(object, zoneID: zone)
                } catch {
                    _ = error.description
                    continue
                }
                // A decoded record encodes to JSON that decodes to the same record.
                let encoded = RecordJSON.encode(record)
                let again: Record
                do {
                    again = try RecordJSON.decode(try JSONParser.parse(JSONWriter.string(encoded)), zoneID: zone)
                } catch {
                    throw FuzzFinding(target: "record-json", message: "an encoded record does not decode (\(error)): \(JSONWriter.string(encoded).prefix(300))")
                }
                if again.fields != record.fields.mapValues(\.normalized) && again.fields != record.fields
                    || again.recordName != record.recordName || again.recordType != record.recordType {
                    throw FuzzFinding(target: "record-json", message: "record changed in a round trip: \(JSONWriter.string(encoded).prefix(300))")
                }
            }
        }
    }

    // MARK: - Schema language

    /// Input: `.ckdb` text.
    public static func schema(_ data: [UInt8]) throws {
        let text = String(decoding: data, as: UTF8.self)
        let document: SchemaDocument
        do {
            document = try SchemaDocument.parse(text)
            try document.validate()
        } catch {
            _ = error.description
            return
        }
        // A valid schema, written out (sorted, system fields added, as cktool prints it), reads
        // back and writes out as the same text.
        let written = document.text
        do {
            let again = try SchemaDocument.parse(written)
            try again.validate()
            if again.text != written {
                throw FuzzFinding(target: "schema", message: "schema changed in a round trip: \(written.prefix(400)) -> \(again.text.prefix(400))")
            }
        } catch let error as SchemaLanguageError {
            throw FuzzFinding(target: "schema", message: "written schema does not parse (\(error)): \(written.prefix(400))")
        }
    }

    // MARK: - Tokens and cursors

    /// A store with a zone, records and real tokens and cursors to damage.
    final class TokenFixture: Sendable {
        let folder: URL
        let database: CloudDatabase
        let zone = ZoneID(zoneName: "fuzz")
        let realTokens: [String]

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-fuzz-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try Store(path: folder.appendingPathComponent("store.sqlite").path)
            database = store.database(.private)
            try database.modifyRecordZones(saving: [zone])
            let empty = try database.currentToken(for: zone)
            let emptyDatabase = try database.currentDatabaseToken()
            var records: [Record] = []
            for index in 0..<30 {
                var record = Record(recordType: "Item", recordID: RecordID(recordName: "r\(index)", zoneID: zone))
                record["count"] = .int64(Int64(index % 7))
                record["name"] = .string(["red", "Green", "blue", "straße"][index % 4] + " \(index)")
                record["when"] = .timestamp(Date(timeIntervalSince1970: Double(index) * 1000))
                record["tags"] = .list(.string, [.string("t\(index % 3)")])
                if index % 5 != 0 { record["place"] = .location(Location(latitude: Double(index), longitude: -Double(index))) }
                records.append(record)
            }
            _ = try database.modifyRecords(saving: records)
            try database.deleteRecord(withID: RecordID(recordName: "r3", zoneID: zone))
            let middle = try database.recordZoneChanges(inZoneWith: zone, since: empty, resultsLimit: 7).changeToken
            var tokens = [empty, middle, try database.currentToken(for: zone), emptyDatabase, try database.currentDatabaseToken()]
            let queries = [
                Query(recordType: "Item", predicateFormat: "count > %@", arguments: [.value(.int64(1))], sortDescriptors: [QuerySort("count")]),
                Query(recordType: "Item", predicateFormat: "TRUEPREDICATE", sortDescriptors: [QuerySort("name", ascending: false)]),
                Query(recordType: "Item", predicateFormat: "name BEGINSWITH 'r' OR tags CONTAINS 't1'"),
                Query(recordType: "Item", predicateFormat: "self CONTAINS 'red'", sortDescriptors: [QuerySort("when")]),
                Query(recordType: "Item", predicateFormat: "distanceToLocation:fromLocation:(place, %@) < 5000000",
                      arguments: [.value(.location(Location(latitude: 10, longitude: -10)))],
                      sortDescriptors: [QuerySort("place", distanceFrom: Location(latitude: 1, longitude: 1))]),
            ]
            for query in queries {
                if let cursor = try? database.records(matching: query, inZoneWith: zone, resultsLimit: 4).cursor { tokens.append(cursor) }
            }
            realTokens = tokens
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    static let fixture: Result<TokenFixture, Error> = Result {
        let fixture = try TokenFixture()
        // A static is never released, so its deinit never runs: remove the folder at exit.
        atexit { if case .success(let fixture) = FuzzTargets.fixture { try? FileManager.default.removeItem(at: fixture.folder) } }
        return fixture
    }

    /// Input: byte 0 picks a mode. Even: the rest is a token string as typed. Odd: byte 1 picks
    /// a real token or cursor, the rest edits its bytes in triples (what, where, value), and
    /// the checksum is made right again so decoding reaches the contents.
    public static func tokens(_ data: [UInt8]) throws {
        let fixture = try fixture.get()
        let text: String
        if data.count >= 2, data[0] & 1 == 1 {
            let original = fixture.realTokens[Int(data[1]) % fixture.realTokens.count]
            var bytes = base64URLDecode(original) ?? []
            let header = Array(bytes.prefix(18))
            bytes.removeLast(min(4, bytes.count))
            var index = 2
            while index + 2 < data.count {
                let (what, place, value) = (data[index], Int(data[index + 1]), data[index + 2])
                index += 3
                let at = bytes.isEmpty ? 0 : place % (bytes.count + 1)
                switch what % 5 {
                case 0: if at < bytes.count { bytes[at] = value }
                case 1: bytes.insert(value, at: at)
                case 2: if at < bytes.count { bytes.remove(at: at) }
                case 3: bytes.removeSubrange(min(at, bytes.count)...)
                default: if at < bytes.count { bytes[at] ^= 1 << (value % 8) }
                }
            }
            // Mostly keep the version, kind and store: the contents are what is worth damaging.
            if data[0] & 2 == 0, bytes.count >= header.count { bytes.replaceSubrange(0..<header.count, with: header) }
            let sum = fnv1a(bytes)
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((sum >> UInt32(shift)) & 0xFF)) }
            text = base64URLEncode(bytes)
        } else {
            text = String(decoding: data.dropFirst(), as: UTF8.self)
        }
        try expectCloudKitError("recordZoneChanges") {
            _ = try fixture.database.recordZoneChanges(inZoneWith: fixture.zone, since: text, resultsLimit: 3)
        }
        try expectCloudKitError("databaseChanges") { _ = try fixture.database.databaseChanges(since: text, resultsLimit: 3) }
        try expectCloudKitError("records(continuingMatchFrom:)") {
            _ = try fixture.database.records(continuingMatchFrom: text, resultsLimit: 3)
        }
    }

    private static func expectCloudKitError(_ call: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CloudKitError {
            if error.message.isEmpty { throw FuzzFinding(target: "tokens", message: "\(call) failed with an empty message") }
        } catch {
            throw FuzzFinding(target: "tokens", message: "\(call) threw \(type(of: error)), not a CloudKitError: \(error)")
        }
    }

    static func fnv1a(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}

extension FuzzTargets {
    /// Runs one libFuzzer input; a broken promise stops the fuzzer as a crash would.
    public static func libFuzzerInput(_ target: String, _ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try run(target, bytes)
        } catch {
            fatalError("\(error)")
        }
        return 0
    }
}
