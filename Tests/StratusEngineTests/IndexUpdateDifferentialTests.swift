import Foundation
import GRDB
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing

/// Replacing a record moves only the index rows of changed fields (RecordIndexer.update). That
/// is right only if every record's rows are exactly what its stored fields give under its
/// type: so random saves, deletes (with DELETE_SELF cascades), schema imports that change
/// indexes (and strip a field) and re-imports of exports go to one store, and a second store
/// made from the final records alone by fresh saves must hold the same `field_value`,
/// `reference_edge` and full-text rows, byte for byte, up to row ids.
@Suite struct IndexUpdateDifferentialTests {
    static let names = (0..<14).map { "r\($0)" }
    /// References point at few records, so two fields of one record often share a target.
    static let targets = Array(names.prefix(4))
    static func type(of name: String) -> String { Int(name.dropFirst())! % 4 == 3 ? "Tag" : "Item" }
    /// Spellings that Swift's `==` takes as one string (é, straße) next to ones that differ by case.
    static let words = ["Caf\u{E9}", "Cafe\u{301}", "cafe", "CAFE", "harbour", "Harbour", "stra\u{DF}e", "STRASSE", "tide", "a b", "",
                        "\u{6771}\u{4EAC}", "e\u{301}mile", "\u{E9}mile", "tide harbour"]
    static let doubles: [Double] = [0.0, -0.0, 1.5, -2.25, 1e300]

    /// Schema variants the run moves between: each changes some field's indexes (a rebuild) and
    /// leaves out `extra`, which saves add back (a forced import strips it from records).
    static func schema(_ variant: Int) -> String {
        let options: [(note: String, x: String, tags: String, plain: String, label: String)] = [
            ("SEARCHABLE", "", "QUERYABLE", "", "QUERYABLE SEARCHABLE"),
            ("QUERYABLE", "QUERYABLE SORTABLE", "", "SEARCHABLE", "QUERYABLE"),
            ("QUERYABLE SEARCHABLE", "QUERYABLE", "QUERYABLE", "QUERYABLE", "SEARCHABLE"),
        ]
        let o = options[variant % options.count]
        return """
            DEFINE SCHEMA
                RECORD TYPE Item (
                    title STRING QUERYABLE SORTABLE SEARCHABLE,
                    note STRING \(o.note),
                    tags LIST<STRING> \(o.tags),
                    n INT64 QUERYABLE SORTABLE,
                    x DOUBLE \(o.x),
                    at TIMESTAMP QUERYABLE,
                    place LOCATION QUERYABLE,
                    owner REFERENCE QUERYABLE,
                    links LIST<REFERENCE> QUERYABLE,
                    raw BYTES,
                    file ASSET,
                    plain STRING \(o.plain)
                );
                RECORD TYPE Tag (
                    label STRING \(o.label),
                    owner REFERENCE QUERYABLE,
                    links LIST<REFERENCE>
                );
            """
    }

    struct Random {
        var generator: SeededGenerator
        mutating func next(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    static func reference(_ random: inout Random) -> FieldValue {
        .reference(Reference(recordName: random.pick(targets), action: random.chance(60) ? .deleteSelf : .none))
    }

    /// A random value for one field (nil: leave it out).
    static func value(_ field: String, type: String, assets: [Asset], _ random: inout Random) -> FieldValue? {
        switch (type, field) {
        case (_, "owner"): return reference(&random)
        case (_, "links"): return .list(.reference, (0..<random.next(4)).map { _ in reference(&random) })
        case ("Tag", "label"): return .string(random.pick(words))
        case (_, "title"), (_, "plain"): return .string(random.pick(words))
        case (_, "note"): return .string((0..<(1 + random.next(3))).map { _ in random.pick(words) }.joined(separator: " "))
        case (_, "tags"): return .list(.string, (0..<random.next(4)).map { _ in .string(random.pick(words)) })
        case (_, "n"): return .int64(Int64(random.next(7)) - 3)
        case (_, "x"): return .double(random.pick(doubles))
        case (_, "at"): return .timestamp(Date(timeIntervalSince1970: 1_700_000_000 + Double(random.next(5)) * 0.001))
        case (_, "place"):
            var location = Location(latitude: 37 + Double(random.next(3)) / 100, longitude: -122 + Double(random.next(3)) / 100)
            // Same index code, other stored bytes.
            if random.chance(30) { location.altitude = Double(random.next(3)) }
            return .location(location)
        case (_, "raw"): return .bytes(Data([UInt8(random.next(3))]))
        case (_, "file"): return .asset(random.pick(assets))
        case (_, "extra"): return .int64(Int64(random.next(3)))
        default: return nil
        }
    }

    static func fieldNames(of type: String) -> [String] {
        type == "Tag" ? ["label", "owner", "links", "extra"]
            : ["title", "note", "tags", "n", "x", "at", "place", "owner", "links", "raw", "file", "plain", "extra"]
    }

    static func newRecord(_ id: RecordID, assets: [Asset], _ random: inout Random) -> StratusCloud.Record {
        let type = type(of: id.recordName)
        var record = StratusCloud.Record(recordType: type, recordID: id)
        for field in fieldNames(of: type) where random.chance(field == "extra" ? 20 : 70) {
            record[field] = value(field, type: type, assets: assets, &random)
        }
        return record
    }

    static func change(_ record: inout StratusCloud.Record, assets: [Asset], _ random: inout Random) {
        for field in fieldNames(of: record.recordType) {
            switch random.next(100) {
            case 0..<25: record[field] = value(field, type: record.recordType, assets: assets, &random)
            case 25..<35: record[field] = nil
            case 35..<45: if let same = record[field] { record[field] = same } // saved again unchanged
            default: break
            }
        }
    }

    /// Every record of both zones, by name.
    static func records(_ database: CloudDatabase, zones: [ZoneID]) throws -> [RecordID: StratusCloud.Record] {
        var found: [RecordID: StratusCloud.Record] = [:]
        for zone in zones {
            for item in try database.records(for: names.map { RecordID(recordName: $0, zoneID: zone) }) {
                if let record = try? item.result.get() { found[record.recordID] = record }
            }
        }
        return found
    }

    static func export(_ database: CloudDatabase, zone: ZoneID) throws -> Data {
        var lines = Data()
        _ = try database.exportRecords(zone: zone, embedAssets: true, write: { lines.append($0) })
        return lines
    }

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The index rows of a store as sorted lines, row ids replaced by names and every value as
    /// its bytes (Swift's String `==` would hide a change of spelling).
    static func indexRows(_ store: Store) throws -> [String] {
        try store.read { db in
            let sqlite = db.sqlite
            var zones: [Int64: String] = [:], types: [Int64: String] = [:], fields: [Int64: String] = [:], records: [Int64: String] = [:]
            for row in try Row.fetchAll(sqlite, sql: "SELECT id, name FROM zone") { zones[row[0]] = row[1] }
            for row in try Row.fetchAll(sqlite, sql: "SELECT id, name FROM record_type") { types[row[0]] = row[1] }
            for row in try Row.fetchAll(sqlite, sql: "SELECT id, type_id, name FROM schema_field") {
                fields[row[0]] = "\(types[row[1]] ?? "?").\(row[2] as String)"
            }
            for row in try Row.fetchAll(sqlite, sql: "SELECT id, zone_id, name FROM record") {
                records[row[0]] = "\(zones[row[1]] ?? "?")/\(row[2] as String)"
            }
            func record(_ id: Int64) -> String { records[id] ?? "?record\(id)" }
            var lines: [String] = []
            for row in try Row.fetchAll(sqlite, sql: "SELECT zone_id, field_id, typeof(value), hex(value), record_id, hex(folded) FROM field_value") {
                let field: Int64 = row[1]
                lines.append("value \(zones[row[0]] ?? "?") \(fields[field] ?? "?field\(field)") \(row[2] as String):\(row[3] as String) \(record(row[4])) folded:\((row[5] as String?) ?? "null")")
            }
            for row in try Row.fetchAll(sqlite, sql: "SELECT zone_id, hex(target), source_id FROM reference_edge") {
                lines.append("edge \(zones[row[0]] ?? "?") \(row[1] as String) \(record(row[2]))")
            }
            // The full-text row is a bag of `z<zone>t<type>x<word>` tokens, in field order.
            for row in try Row.fetchAll(sqlite, sql: "SELECT rowid, tokens FROM record_text") {
                let tokens = (row[1] as String).split(separator: " ").map { token -> String in
                    guard let t = token.firstIndex(of: "t"), let x = token[t...].firstIndex(of: "x"),
                          let zone = Int64(token.dropFirst().prefix(upTo: t)), let type = Int64(token[token.index(after: t)..<x]) else { return "?" + hex(token.utf8) }
                    return "\(zones[zone] ?? "?")/\(types[type] ?? "?")/\(hex(token[token.index(after: x)...].utf8))"
                }
                lines.append("text \(record(row[0])) \(tokens.sorted().joined(separator: ","))")
            }
            return lines.sorted()
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func rowsAfterRandomWritesEqualAFreshStores(seed: UInt64) throws {
        var random = Random(generator: SeededGenerator(seed: seed))
        let temp = try TemporaryStore()
        var variant = 0
        try temp.store.importSchema(text: Self.schema(variant), force: true)
        let zones = [ZoneID.default, try temp.zone("Z")]
        let assets = try [Data("one".utf8), Data("two".utf8)].map { try temp.store.putAsset($0) }
        let database = temp.privateDB
        var snapshot: [ZoneID: Data] = [:]
        var counts = (saved: 0, replaced: 0, deleted: 0, imported: 0, schemas: 0)
        for _ in 0..<250 {
            let roll = random.next(100)
            if roll < 6 {
                variant += 1
                try temp.store.importSchema(text: Self.schema(variant), force: true)
                counts.schemas += 1
                continue
            }
            if roll < 10 {
                for zone in zones { snapshot[zone] = try Self.export(database, zone: zone) }
                continue
            }
            if roll < 16 {
                // An earlier export and today's, in random order and repeated: the import replaces
                // records it wrote itself (rows still held) and records it restores to older values.
                let zone = random.pick(zones)
                var parts = [try Self.export(database, zone: zone)]
                if let old = snapshot[zone] { parts += random.chance(50) ? [old] : [old, old] }
                parts.shuffle(using: &random.generator)
                let file = temp.directory.appendingPathComponent("import.jsonl")
                try parts.reduce(Data(), +).write(to: file)
                let handle = try FileHandle(forReadingFrom: file)
                defer { try? handle.close() }
                counts.imported += try database.importRecords(lines: handle, zoneID: zone)
                continue
            }
            // A batch in one zone: saves of new and existing records, and some deletes.
            let zone = random.pick(zones)
            let existing = try Self.records(database, zones: [zone])
            var chosen = Self.names.shuffled(using: &random.generator).prefix(1 + random.next(5))
            var deleting: [RecordID] = []
            if roll >= 80 {
                let present = chosen.filter { existing[RecordID(recordName: $0, zoneID: zone)] != nil }
                deleting = present.prefix(1 + random.next(2)).map { RecordID(recordName: $0, zoneID: zone) }
                chosen.removeAll { name in deleting.contains { $0.recordName == name } }
                if roll >= 92 { chosen = [] }
            }
            var saving: [StratusCloud.Record] = []
            for name in chosen {
                let id = RecordID(recordName: name, zoneID: zone)
                if var record = existing[id] {
                    Self.change(&record, assets: assets, &random)
                    saving.append(record)
                    counts.replaced += 1
                } else {
                    saving.append(Self.newRecord(id, assets: assets, &random))
                }
            }
            let result = try database.modifyRecords(saving: saving, deleting: deleting)
            #expect(result.partialFailure == nil)
            counts.saved += saving.count
            counts.deleted += deleting.count + result.cascadeDeletedRecordIDs.count
        }
        // The run did what it is meant to test.
        #expect(counts.replaced > 100 && counts.deleted > 10 && counts.imported > 20 && counts.schemas > 3, "\(counts)")

        // The same records saved anew into an empty store with the same schema.
        let final = try Self.records(database, zones: zones)
        let fresh = try TemporaryStore()
        try fresh.store.importSchema(try temp.store.exportSchema())
        _ = try fresh.zone("Z")
        for data in [Data("one".utf8), Data("two".utf8)] { _ = try fresh.store.putAsset(data) }
        let copies = final.values.map { StratusCloud.Record(recordType: $0.recordType, recordID: $0.recordID, fields: $0.fields) }
        _ = try fresh.privateDB.modifyRecords(saving: copies).savedRecords()
        #expect(try Self.records(fresh.privateDB, zones: zones).mapValues(\.fields) == final.mapValues(\.fields))

        let (kept, rebuilt) = (try Self.indexRows(temp.store), try Self.indexRows(fresh.store))
        #expect(rebuilt.count > 50, "\(final.count) records, \(counts)")
        let extra = Set(kept).subtracting(rebuilt), missing = Set(rebuilt).subtracting(kept)
        #expect(extra.isEmpty && missing.isEmpty && kept == rebuilt,
                "rows only in the written store:\n\(extra.sorted().prefix(12).joined(separator: "\n"))\nrows only in the fresh one:\n\(missing.sorted().prefix(12).joined(separator: "\n"))")
    }
}
