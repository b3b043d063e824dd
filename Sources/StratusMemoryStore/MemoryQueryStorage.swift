import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// A memory store's query storage: the index entries of one zone and record type, made from its
/// records as the query starts (under the type's catalog entry, as SQLite's indexer writes
/// them: a value entry per element of a QUERYABLE/SORTABLE field, words of SEARCHABLE
/// strings), kept in sorted arrays and read in SQLite's order (numbers before text, text by
/// its bytes, keyset positions). The planner and the executor hold only CloudKit's rules, so
/// they answer every query over it exactly as over SQLite.
package struct MemoryQueryStorage: QueryStorage {
    private struct Entry {
        var key: IndexValue
        var folded: String?
        var id: Int64
    }

    private var records: [Int64: StoredRecord] = [:]
    private var idsByName: [String: Int64] = [:]
    /// The type's records (the zone may hold others).
    private var typed: [StoredRecord] = []
    /// Each field's entries, in (key, id) order, one per distinct (key, id).
    private var entries: [Int64: [Entry]] = [:]
    private var tokens: [Int64: Set<String>] = [:]

    /// Index entries for `typeID`'s records among `zoneRecords`, under `type`'s schema.
    package init(zoneRecords: [StoredRecord], type: SchemaCatalog.TypeEntry) throws {
        for stored in zoneRecords {
            records[stored.id] = stored
            idsByName[stored.name] = stored.id
            guard stored.typeID == type.id else { continue }
            typed.append(stored)
            for (name, value) in try stored.fields() {
                guard let field = type.fields[name] else { continue }
                if field.searchesText {
                    tokens[stored.id, default: []].formUnion(TextTokenizer.tokens(of: value))
                }
                guard field.indexesValues else { continue }
                value.forEachElement { element in
                    guard let key = IndexKey(element) else { return }
                    entries[field.id, default: []].append(Entry(key: key.value, folded: key.foldedKey, id: stored.id))
                }
            }
        }
        for fieldID in entries.keys {
            entries[fieldID]!.sort { Self.before(($0.key, $0.id), ($1.key, $1.id)) }
            entries[fieldID] = entries[fieldID]!.reduce(into: []) { kept, entry in
                if let last = kept.last, Self.compare(last.key, entry.key) == 0, last.id == entry.id { return }
                kept.append(entry)
            }
        }
    }

    package func streamRows(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                    backwards: Bool, _ body: (Int64, IndexValue?, StoredRecord) throws -> Bool) throws {
        var rows: [(key: IndexValue, id: Int64)]
        // Drivers ordered by value go `descending != backwards`; those ordered by id go by `backwards` alone.
        var byValue = true
        switch driver {
        case .values(let fieldID, let keys, let folded, _):
            rows = (entries[fieldID] ?? []).filter { Self.equals($0, keys[0], folded: folded) }
                .map { ($0.key, $0.id) }
            rows.sort { $0.id < $1.id }
            byValue = false
        case .range(let fieldID, let lower, let upper, _):
            rows = (entries[fieldID] ?? []).filter { Self.within($0.key, lower, upper) }.map { ($0.key, $0.id) }
        case .systemTime(let time, let lower, let upper):
            rows = typed.map { (IndexValue.integer(time == .created ? $0.createdAt : $0.modifiedAt), $0.id) }.filter { Self.within($0.0, lower, upper) }
            rows.sort { Self.before(($0.key, $0.id), ($1.key, $1.id)) }
        case .text(let wanted, let matchAll):
            rows = typed.filter { matches(tokens[$0.id] ?? [], wanted, matchAll) }.map { (.integer(0), $0.id) }.sorted { $0.id < $1.id }
            byValue = false
        case .typeScan:
            rows = typed.map { (IndexValue.integer($0.modifiedAt), $0.id) }.sorted { Self.before(($0.key, $0.id), ($1.key, $1.id)) }
            byValue = false
        case .nothing, .names, .location:
            throw QueryExecutor.staleCursor
        }
        let reversed = byValue ? descending != backwards : backwards
        if reversed { rows.reverse() }
        let keyset: Bool
        switch driver {
        case .range, .systemTime, .typeScan: keyset = true
        default: keyset = false
        }
        var handed = 0
        for row in rows {
            if keyset, let afterKey, let afterID {
                let after = Self.before((afterKey, afterID), (row.key, row.id))
                if reversed ? !Self.before((row.key, row.id), (afterKey, afterID)) : !after { continue }
            } else if !keyset, let afterID {
                if reversed ? row.id >= afterID : row.id <= afterID { continue }
            }
            guard handed < count else { return }
            handed += 1
            guard try body(row.id, row.key, records[row.id]!) else { return }
        }
    }

    package func streamFields(of driver: QueryPlan.Driver, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                      selecting selection: FieldSelection, _ body: (Int64, IndexValue?, FieldSelection.Located, StoredRecord?) throws -> Bool) throws {
        var starts: [Int] = []
        try streamRows(of: driver, descending: descending, afterKey: afterKey, afterID: afterID, count: count, backwards: false) { id, key, record in
            try FieldCoder.encode(try record.fields()).withUnsafeBytes { try body(id, key, try selection.locate($0, reusing: &starts), record) }
        }
    }

    package func streamIndex(fieldID: Int64, descending: Bool, afterKey: IndexValue?, afterID: Int64?, count: Int,
                     _ body: (Int64, IndexValue) throws -> Bool) throws {
        var rows = (entries[fieldID] ?? []).map { (key: $0.key, id: $0.id) }
        if descending { rows.reverse() }
        var handed = 0
        for row in rows {
            if let afterKey, let afterID {
                let follows = descending ? Self.before((row.key, row.id), (afterKey, afterID)) : Self.before((afterKey, afterID), (row.key, row.id))
                if !follows { continue }
            }
            guard handed < count else { return }
            handed += 1
            guard try body(row.id, row.key) else { return }
        }
    }

    package func countIDs(of driver: QueryPlan.Driver, upTo limit: Int) throws -> Int {
        min(try candidateIDs(of: driver, stoppingAt: .max).count, limit)
    }

    package func candidateIDs(of driver: QueryPlan.Driver, stoppingAt stop: Int) throws -> Set<Int64> {
        var ids: Set<Int64>
        switch driver {
        case .nothing:
            ids = []
        case .names(let names):
            ids = Set(names.compactMap { idsByName[$0] })
        case .values(let fieldID, let keys, let folded, _):
            ids = Set((entries[fieldID] ?? []).filter { entry in
                keys.contains { Self.equals(entry, $0, folded: folded) }
            }.map(\.id))
        case .range(let fieldID, let lower, let upper, _):
            ids = Set((entries[fieldID] ?? []).filter { Self.within($0.key, lower, upper) }.map(\.id))
        case .systemTime(let time, let lower, let upper):
            ids = Set(typed.filter { Self.within(.integer(time == .created ? $0.createdAt : $0.modifiedAt), lower, upper) }.map(\.id))
        case .typeScan:
            ids = Set(typed.map(\.id))
        case .text(let wanted, let matchAll):
            ids = Set(typed.filter { matches(tokens[$0.id] ?? [], wanted, matchAll) }.map(\.id))
        case .location(let fieldID, let box):
            let ranges = ZOrderCode.ranges(latitudes: box.minLatitude...box.maxLatitude, longitudes: box.longitudes)
            ids = Set((entries[fieldID] ?? []).filter { entry in
                guard case .integer(let code) = entry.key else { return false }
                return ranges.contains { $0.contains(code) }
            }.map(\.id))
        }
        return stop == .max ? ids : Set(ids.prefix(stop))
    }

    package func modificationOrder(after start: (modifiedAt: Int64, id: Int64)?, count: Int, backwards: Bool,
                           lackingField: Int64?) throws -> [(modifiedAt: Int64, id: Int64)] {
        let indexed = lackingField.map { Set((entries[$0] ?? []).map(\.id)) } ?? []
        var rows = typed.filter { !indexed.contains($0.id) }.map { (modifiedAt: $0.modifiedAt, id: $0.id) }
            .sorted { ($0.modifiedAt, $0.id) < ($1.modifiedAt, $1.id) }
        if backwards { rows.reverse() }
        if let start {
            rows = rows.filter { backwards ? ($0.modifiedAt, $0.id) < (start.modifiedAt, start.id) : ($0.modifiedAt, $0.id) > (start.modifiedAt, start.id) }
        }
        return Array(rows.prefix(count))
    }

    package func record(id: Int64) throws -> StoredRecord? { records[id] }

    package func lackingCount(fieldID: Int64) throws -> (lacking: Int, records: Int) {
        let indexed = Set((entries[fieldID] ?? []).map(\.id))
        return (typed.filter { !indexed.contains($0.id) }.count, typed.count)
    }

    private func matches(_ held: Set<String>, _ wanted: [String], _ matchAll: Bool) -> Bool {
        matchAll ? wanted.allSatisfy(held.contains) : wanted.contains(where: held.contains)
    }

    /// SQLite's order of values (``IndexValue/order(_:_:)``).
    package static func compare(_ a: IndexValue, _ b: IndexValue) -> Int { IndexValue.order(a, b) }

    /// `field_value.value = key`, or `folded = key` (only strings have a folded key).
    private static func equals(_ entry: Entry, _ key: IndexValue, folded: Bool) -> Bool {
        guard folded else { return compare(entry.key, key) == 0 }
        return entry.folded.map { compare(.text($0), key) == 0 } ?? false
    }

    package static func before(_ a: (IndexValue, Int64), _ b: (IndexValue, Int64)) -> Bool {
        let order = compare(a.0, b.0)
        return order != 0 ? order < 0 : a.1 < b.1
    }

    package static func within(_ value: IndexValue, _ lower: QueryPlan.Bound?, _ upper: QueryPlan.Bound?) -> Bool {
        if let lower {
            let order = compare(value, lower.value)
            if order < 0 || (order == 0 && !lower.inclusive) { return false }
        }
        if let upper {
            let order = compare(value, upper.value)
            if order > 0 || (order == 0 && !upper.inclusive) { return false }
        }
        return true
    }
}
