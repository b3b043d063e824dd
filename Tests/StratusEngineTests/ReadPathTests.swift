import Foundation
import StratusCloud
@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import StratusTestSupport
import Testing
import protocol GRDB.DatabaseValueConvertible

/// The fast read path: the field blob's coder, the batch decoder's remembered layouts, and
/// playback merging record rows with deletions.
@Suite(.onEveryBackend) struct ReadPathTests {
    private static let everyType: [String: FieldValue] = [
        "text": .string("héllo wörld, long enough not to be a small string"),
        "short": .string(""),
        "count": .int64(Int64.min),
        "big": .int64(Int64.max),
        "ratio": .double(-0.0),
        "nan": .double(Double(bitPattern: 0x7FF8_0000_0000_0001)),
        "when": .timestamp(FieldValue.date(milliseconds: -1_234_567)),
        "blob": .bytes(Data([0, 1, 2, 255])),
        "empty": .bytes(Data()),
        "file": .asset(Asset(fileChecksum: "abc123", size: 42)),
        "owner": .reference(Reference(recordName: "u1", action: .deleteSelf)),
        "place": .location(Location(latitude: 51.5, longitude: -0.12)),
        "tags": .list(.string, [.string("a"), .string("bé")]),
        "none": .list(.int64, []),
        "spots": .list(.location, [.location(Location(latitude: 1, longitude: 2))]),
    ]

    private static func same(_ a: [String: FieldValue], _ b: [String: FieldValue]) -> Bool {
        // Bit patterns, so NaN and -0.0 count as kept.
        FieldCoder.encode(a) == FieldCoder.encode(b) && a.keys.sorted() == b.keys.sorted()
    }

    /// Reading connections map as much of the store as asked (reads jump around a large
    /// store); the writer maps at most 128 MiB, so a bulk write's pages do not all count as the
    /// process's memory.
    @Test(.sqliteOnly("SQLite's memory map")) func readersMapTheStoreAndTheWriterMapsLess() throws {
        let temp = try TemporaryStore()
        let reader = try temp.store.read { db in try Int.fetchOne(db.sqlite, sql: "PRAGMA mmap_size") }
        let writer = try temp.store.write { db in try Int.fetchOne(db.sqlite, sql: "PRAGMA mmap_size") }
        #expect(reader == Store.defaultMemoryMapBytes)
        #expect(writer == SQLiteStoreFile.writerMemoryMapBytes)
        #expect(SQLiteStoreFile.writerMemoryMapBytes < Store.defaultMemoryMapBytes)
    }

    @Test func everyTypeRoundTripsExactly() throws {
        var location = Location(latitude: 10, longitude: 20)
        location.altitude = 3
        location.speed = 4
        location.timestamp = FieldValue.date(milliseconds: 99)
        var fields = Self.everyType
        fields["full"] = .location(location)
        let blob = FieldCoder.encode(fields)
        let decoded = try FieldCoder.decode(blob)
        #expect(decoded.count == fields.count)
        #expect(Self.same(decoded, fields))
        #expect(decoded["full"] == .location(location))
        #expect(decoded["text"] == fields["text"])
        #expect(Self.same(try FieldDecoder().decode(blob, shape: 1), decoded))
        #expect(try FieldCoder.decode(FieldCoder.encode([:])).isEmpty)
    }

    /// A blob lists its fields in the order of their names, whatever order the dictionary
    /// keeps them in: each field's bytes are those it has alone, one after another by name.
    @Test func aBlobListsItsFieldsByName() throws {
        var generator = SeededGenerator(seed: 5)
        let entries = Array(Self.everyType) + [("a", .int64(1)), ("B", .int64(2)), ("a_b", .string("x")), ("aa", .double(3)), ("Z9", .string(""))]
        for _ in 0..<300 {
            var fields: [String: FieldValue] = [:]
            for _ in 0..<generator.below(entries.count + 1) {
                let (name, value) = entries[generator.below(entries.count)]
                fields[name] = value
            }
            var expected: [UInt8] = [FieldCoder.formatVersion, UInt8(fields.count)]
            for name in fields.keys.sorted() { expected += FieldCoder.encode([name: fields[name]!]).dropFirst(2) }
            #expect([UInt8](FieldCoder.encode(fields)) == expected, "\(fields.keys.sorted())")
        }
    }

    @Test func damagedBlobsThrowInsteadOfTrapping() throws {
        let blob = [UInt8](FieldCoder.encode(Self.everyType))
        let decoder = FieldDecoder()
        _ = try decoder.decode(Data(blob), shape: 1) // teach it the layout first
        for length in 0..<blob.count {
            let cut = Data(blob[0..<length])
            #expect(throws: (any Error).self) { try FieldCoder.decode(cut) }
            #expect(throws: (any Error).self) { try decoder.decode(cut, shape: 1) }
        }
        var wrongVersion = blob
        wrongVersion[0] = 99
        #expect(throws: (any Error).self) { try FieldCoder.decode(Data(wrongVersion)) }
        #expect(throws: (any Error).self) { try FieldCoder.decode(Data([1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])) }
    }

    @Test func aSelectionDecodesItsFieldsAndSkipsEveryOtherType() throws {
        var fields = Self.everyType
        // A location with some optional parts and not others, each skipped by its mask bit.
        fields["full"] = .location(Location(latitude: 10, longitude: 20, altitude: 3, course: 1, timestamp: FieldValue.date(milliseconds: 99)))
        let blob = FieldCoder.encode(fields)
        // Each field alone, so every other type is skipped before or after it.
        for name in fields.keys {
            let picked = try blob.withUnsafeBytes { try Self.decode($0, FieldSelection(filter: [name], sorts: [])) }
            #expect(picked.count == 1)
            #expect(Self.same(picked[0].map { [name: $0] } ?? [:], [name: fields[name]!]), "selecting \(name)")
        }
        let names = Array(fields.keys.sorted().enumerated().filter { $0.offset % 2 == 1 }.map(\.element)) + ["absent"]
        let selection = FieldSelection(filter: names, sorts: [])
        let picked = try blob.withUnsafeBytes { try Self.decode($0, selection) }
        #expect(picked[selection.names.firstIndex(of: "absent")!] == nil)
        let named = Dictionary(uniqueKeysWithValues: zip(selection.names, picked).compactMap { name, value in value.map { (name, $0) } })
        #expect(Self.same(named, fields.filter { names.contains($0.key) }))
        for length in 0..<blob.count - 1 {
            let cut = Data(blob[0..<length])
            #expect(throws: (any Error).self) { try cut.withUnsafeBytes { try Self.decode($0, FieldSelection(filter: ["absent"], sorts: [])) } }
        }
    }

    /// A scan decodes the filter's fields first and the sorts' only for rows that match: each
    /// step fills its own entries (nil where the row lacks one) and leaves the others alone.
    @Test func aSelectionDecodesTheFiltersFieldsApartFromTheSorts() throws {
        let selection = FieldSelection(filter: ["count", "text", "text"], sorts: ["when", "text", "absent"])
        #expect(selection.names == ["absent", "count", "text", "when"])
        #expect(selection.filterFields.map { selection.names[$0] } == ["count", "text"])
        #expect(selection.sortOnlyFields.map { selection.names[$0] } == ["absent", "when"])
        let blob = FieldCoder.encode(Self.everyType)
        var starts = [7, 7]
        let stale = FieldValue.string("from the row before")
        var values = [FieldValue?](repeating: stale, count: 4)
        try blob.withUnsafeBytes { bytes in
            let located = try selection.locate(bytes, reusing: &starts)
            try located.decode(selection.filterFields, into: &values)
            #expect(values[0] == stale && values[3] == stale, "the sorts' fields are not read yet")
            #expect(values[1] == Self.everyType["count"] && values[2] == Self.everyType["text"])
            try located.decode(selection.sortOnlyFields, into: &values)
            #expect(values[0] == nil, "a field the row lacks is nil, not the row before's")
            #expect(values[3] == Self.everyType["when"])
        }
        // Every field is found through the same starts, whatever precedes it.
        for name in Self.everyType.keys {
            let one = FieldSelection(filter: [], sorts: [name])
            try blob.withUnsafeBytes { bytes in
                var values: [FieldValue?] = [nil]
                try one.locate(bytes, reusing: &starts).decode(one.sortOnlyFields, into: &values)
                #expect(Self.same(values[0].map { [name: $0] } ?? [:], [name: Self.everyType[name]!]), "locating \(name)")
            }
        }
    }

    /// Every selected field of `blob`, as a scan finds and decodes them.
    private static func decode(_ blob: UnsafeRawBufferPointer, _ selection: FieldSelection) throws -> [FieldValue?] {
        var starts: [Int] = []
        var values = [FieldValue?](repeating: nil, count: selection.names.count)
        try selection.locate(blob, reusing: &starts).decode(Array(selection.names.indices), into: &values)
        return values
    }

    @Test func batchDecoderFollowsChangingLayouts() throws {
        let decoder = FieldDecoder()
        let shapes: [[String: FieldValue]] = [
            ["a": .int64(1), "b": .string("x")],
            ["a": .int64(2)],
            ["a": .int64(3), "c": .string("y")],           // same count as the first, other key
            ["a": .int64(4), "bb": .string("z")],          // a key of another length
            [:],
            ["b": .string("w"), "a": .double(5)],          // the first keys, other value types
            ["a": .int64(1), "b": .string("x"), "c": .location(Location(latitude: 1, longitude: 1)),
             "d": .int64(1), "e": .int64(1), "f": .int64(1)],
        ]
        for round in 0..<3 {
            for (index, fields) in shapes.enumerated() {
                let shape = Int64(index % 2 + round)
                #expect(try decoder.decode(FieldCoder.encode(fields), shape: shape) == fields)
            }
        }
    }

    @Test func playbackMergesDeletionsAtEveryPageSize() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Merge")
        let db = temp.privateDB
        func id(_ name: String) -> RecordID { RecordID(recordName: name, zoneID: zone) }
        for index in 0..<12 {
            try db.save(Record(recordType: index % 3 == 0 ? "Other" : "Item", recordID: id("r\(index)"),
                               fields: ["n": .int64(Int64(index)), "s": .string("value \(index)")]))
        }
        for index in [0, 4, 5, 11] { try db.deleteRecord(withID: id("r\(index)")) }
        var edit = try db.record(for: id("r7"))
        edit["n"] = .int64(70)
        try db.save(edit)
        try db.deleteRecord(withID: id("r2"))

        func label(_ change: ZoneChange) -> String {
            switch change {
            case .changed(let record): return record.recordName
            case .deleted(let recordID, let type): return "-\(recordID.recordName):\(type)"
            }
        }
        let expected = ["r1", "r3", "r6", "r8", "r9", "r10", "-r0:Other", "-r4:Item", "-r5:Item", "-r11:Item", "r7", "-r2:Item"]
        let whole = try db.recordZoneChanges(inZoneWith: zone)
        #expect(whole.changes.map(label) == expected)
        #expect(!whole.moreComing)
        for size in 1...13 {
            var token: String?
            var seen: [String] = []
            var pages = 0
            while pages < 20 {
                let page = try db.recordZoneChanges(inZoneWith: zone, since: token, resultsLimit: size)
                #expect(page.changes.count <= size)
                seen += page.changes.map(label)
                token = page.changeToken
                pages += 1
                if !page.moreComing { break }
            }
            #expect(seen == expected, "page size \(size)")
            #expect(pages == (expected.count + size - 1) / size)
            #expect(token == (try db.currentToken(for: zone)))
        }
        if case .changed(let record) = whole.changes[10] {
            #expect(record["n"] == .int64(70))
            #expect(record["s"] == .string("value 7"))
            #expect(record.recordType == "Item")
        } else {
            Issue.record("r7 should be a change")
        }
    }

    @Test func fetchReadsTheSameRecordsAsSaved() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Read")
        let db = temp.privateDB
        var saved: [Record] = []
        for index in 0..<30 {
            var fields = Self.everyType
            fields["nan"] = nil // CloudKit stores only finite doubles
            fields["file"] = nil // an asset needs its file uploaded first
            fields["n"] = .int64(Int64(index))
            if index % 4 == 0 { fields["extra"] = .string("only some") }
            if index % 5 == 0 { fields.removeValue(forKey: "tags") }
            saved.append(try db.save(Record(recordType: "Thing", recordID: RecordID(recordName: "t\(index)", zoneID: zone), fields: fields)))
        }
        let fetched = try db.records(for: saved.map(\.recordID) + [RecordID(recordName: "missing", zoneID: zone)])
        #expect(fetched.count == saved.count + 1)
        for (record, result) in zip(saved, fetched) {
            let got = try result.result.get()
            #expect(Self.same(got.fields, record.fields))
            #expect(got.recordChangeTag == record.recordChangeTag)
            #expect(got.modificationDate == record.modificationDate)
            #expect(got.creatorUserRecordName == record.creatorUserRecordName)
            #expect(got.changedKeys.isEmpty)
        }
        #expect((try? fetched.last!.result.get()) == nil)
        let trimmed = try db.records(for: [saved[0].recordID], desiredKeys: ["n", "extra"])[0].result.get()
        #expect(trimmed.fields == ["n": .int64(0), "extra": .string("only some")])
        let bare = try db.records(for: [saved[0].recordID], desiredKeys: [])[0].result.get()
        #expect(bare.fields.isEmpty)
        #expect(bare.recordChangeTag == saved[0].recordChangeTag)
    }

    /// A fetch of more names than one statement takes (a hundred), in no order, with names
    /// asked twice and names the zone lacks, answers each name in the order asked.
    @Test func aFetchOfManyNamesAnswersEachInTheOrderAsked() throws {
        let temp = try TemporaryStore()
        let zone = try temp.zone("Many")
        let db = temp.privateDB
        _ = try db.modifyRecords(saving: (0..<230).map { index in
            Record(recordType: "Thing", recordID: RecordID(recordName: "m\(index)", zoneID: zone), fields: ["n": .int64(Int64(index))])
        }).savedRecords()
        var asked = (0..<230).reversed().map { "m\($0)" }
        asked.insert("nowhere", at: 57)
        asked.insert("m5", at: 150)
        asked.append("m230")
        let fetched = try db.records(for: asked.map { RecordID(recordName: $0, zoneID: zone) })
        #expect(fetched.map(\.recordID.recordName) == asked)
        for (name, item) in zip(asked, fetched) {
            if let record = try? item.result.get() {
                #expect(record.fields["n"] == .int64(Int64(name.dropFirst())!))
            } else {
                #expect(name == "nowhere" || name == "m230", "\(name) was not found")
            }
        }
        #expect(fetched.filter { (try? $0.result.get()) != nil }.count == 231)
    }
}
