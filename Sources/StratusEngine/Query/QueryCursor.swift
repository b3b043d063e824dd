import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// Where a query stopped: the query itself (so a later process can go on with the cursor
/// alone), the time `now()` meant, and the position after the last record returned.
///
/// The position is a keyset: the sort key (or driver key) of the last record and its row id,
/// so a page costs the same at any depth and no record is repeated or skipped.
struct QueryCursor: Equatable {
    enum Position: Equatable {
        /// After (key, id) in the driver's order.
        case streaming(key: FieldValue?, id: Int64)
        /// Among the records lacking the sort field, after (modification time, id).
        case lackingSortField(modifiedAt: Int64, id: Int64)
        /// As `lackingSortField`, with the records that follow it among those lacking the sort
        /// field (``QueryLookahead``; `endsGroup`: they are all there are), the last of them
        /// modified at `listedThrough`.
        case lackingLookahead(modifiedAt: Int64, id: Int64, lookahead: QueryLookahead, listedThrough: Int64)
        /// After row id `id` in id order.
        case collected(id: Int64)
        /// After these sort values and id, in the query's sort order.
        case sorted(values: [FieldValue?], id: Int64)
        /// As `sorted`, with the matches that follow (``QueryLookahead``).
        case sortedLookahead(values: [FieldValue?], id: Int64, lookahead: QueryLookahead)
    }

    var scope: DatabaseScope
    var zoneID: ZoneID
    var query: Query
    var now: Date
    var position: Position

    func encoded(storeID: UUID) -> String {
        var writer = ByteWriter()
        writer.byte(UInt8(scope.rawValue))
        writer.string(zoneID.zoneName)
        writer.string(zoneID.ownerName)
        writer.string(query.recordType)
        writer.string(query.predicateFormat)
        writer.varint(UInt64(query.arguments.count))
        for argument in query.arguments {
            switch argument {
            case .value(let value):
                writer.byte(0)
                FieldCoder.writeValue(value, into: &writer)
            case .key(let key):
                writer.byte(1)
                writer.string(key)
            }
        }
        writer.varint(UInt64(query.sortDescriptors.count))
        for sort in query.sortDescriptors {
            writer.string(sort.key)
            writer.byte(sort.ascending ? 1 : 0)
            if let center = sort.distanceFrom {
                writer.byte(1)
                FieldCoder.writeValue(.location(center), into: &writer)
            } else {
                writer.byte(0)
            }
        }
        writer.signed(FieldValue.milliseconds(now))
        switch position {
        case .streaming(let key, let id):
            writer.byte(0)
            QueryCursor.writeOptional(key, into: &writer)
            writer.signed(id)
        case .collected(let id):
            writer.byte(1)
            writer.signed(id)
        case .lackingSortField(let modifiedAt, let id):
            writer.byte(3)
            writer.signed(modifiedAt)
            writer.signed(id)
        case .sorted(let values, let id):
            writer.byte(2)
            QueryCursor.writeSorted(values, id, into: &writer)
        case .sortedLookahead(let values, let id, let lookahead):
            writer.byte(4)
            QueryCursor.writeSorted(values, id, into: &writer)
            QueryCursor.writeLookahead(lookahead, into: &writer)
        case .lackingLookahead(let modifiedAt, let id, let lookahead, let listedThrough):
            writer.byte(5)
            writer.signed(modifiedAt)
            writer.signed(id)
            QueryCursor.writeLookahead(lookahead, into: &writer)
            writer.signed(listedThrough)
        }
        return OpaqueToken(kind: .queryCursor, storeID: storeID, payload: writer.bytes).encoded()
    }

    static func decode(_ text: String, storeID: UUID) throws -> QueryCursor {
        let token = try OpaqueToken.decode(text, expecting: .queryCursor, storeID: storeID)
        var reader = ByteReader(bytes: token.payload)
        do {
            guard let scope = DatabaseScope(rawValue: Int(try reader.byte())) else { throw ByteReader.Failure.corrupt }
            let zoneID = ZoneID(zoneName: try reader.string(), ownerName: try reader.string())
            var query = Query(recordType: try reader.string(), predicateFormat: try reader.string())
            let argumentCount = try reader.varint()
            guard argumentCount < 10_000 else { throw ByteReader.Failure.corrupt }
            for _ in 0..<argumentCount {
                query.arguments.append(try reader.byte() == 0 ? .value(try FieldCoder.readValue(from: &reader)) : .key(try reader.string()))
            }
            let sortCount = try reader.varint()
            guard sortCount < 1000 else { throw ByteReader.Failure.corrupt }
            for _ in 0..<sortCount {
                let key = try reader.string()
                let ascending = try reader.byte() == 1
                var center: Location?
                if try reader.byte() == 1, case .location(let location) = try FieldCoder.readValue(from: &reader) { center = location }
                query.sortDescriptors.append(QuerySort(key, ascending: ascending, distanceFrom: center))
            }
            let now = FieldValue.date(milliseconds: try exactMilliseconds(reader.signed()))
            let position: Position
            switch try reader.byte() {
            case 0: position = .streaming(key: try readOptional(from: &reader), id: try reader.signed())
            case 1: position = .collected(id: try reader.signed())
            case 3: position = .lackingSortField(modifiedAt: try exactMilliseconds(reader.signed()), id: try reader.signed())
            case 2:
                let (values, id) = try readSorted(from: &reader)
                position = .sorted(values: values, id: id)
            case 4:
                let (values, id) = try readSorted(from: &reader)
                position = .sortedLookahead(values: values, id: id, lookahead: try readLookahead(from: &reader))
            case 5:
                let (modifiedAt, id) = (try exactMilliseconds(reader.signed()), try reader.signed())
                let lookahead = try readLookahead(from: &reader)
                position = .lackingLookahead(modifiedAt: modifiedAt, id: id, lookahead: lookahead, listedThrough: try exactMilliseconds(reader.signed()))
            default: throw ByteReader.Failure.corrupt
            }
            guard reader.isAtEnd else { throw ByteReader.Failure.corrupt }
            for case .value(let value) in query.arguments { try checkDates(value) }
            switch position {
            case .streaming(let key?, _): try checkDates(key)
            case .sorted(let values, _), .sortedLookahead(let values, _, _): for case let value? in values { try checkDates(value) }
            default: break
            }
            return QueryCursor(scope: scope, zoneID: zoneID, query: query, now: now, position: position)
        } catch {
            throw CloudKitError(.invalidArguments, "The query cursor is damaged (its contents do not parse); run the query again without a cursor.")
        }
    }

    private static func writeSorted(_ values: [FieldValue?], _ id: Int64, into writer: inout ByteWriter) {
        writer.varint(UInt64(values.count))
        for value in values { writeOptional(value, into: &writer) }
        writer.signed(id)
    }

    private static func readSorted(from reader: inout ByteReader) throws -> (values: [FieldValue?], id: Int64) {
        let count = try reader.varint()
        guard count < 1000 else { throw ByteReader.Failure.corrupt }
        var values: [FieldValue?] = []
        for _ in 0..<count { values.append(try readOptional(from: &reader)) }
        return (values, try reader.signed())
    }

    private static func writeLookahead(_ lookahead: QueryLookahead, into writer: inout ByteWriter) {
        writer.signed(lookahead.stamp.zoneRowID)
        writer.signed(lookahead.stamp.incarnation)
        writer.signed(lookahead.stamp.changeSequence)
        writer.signed(lookahead.stamp.schemaVersion)
        writer.byte(lookahead.endsGroup ? 1 : 0)
        writer.varint(UInt64(lookahead.ids.count))
        for id in lookahead.ids { writer.signed(id) }
    }

    private static func readLookahead(from reader: inout ByteReader) throws -> QueryLookahead {
        let stamp = LookaheadStamp(zoneRowID: try reader.signed(), incarnation: try reader.signed(), changeSequence: try reader.signed(),
                                   schemaVersion: try reader.signed())
        let endsGroup = try reader.byte() == 1
        let count = try reader.varint()
        guard count > 0, count <= QueryLookahead.capacity else { throw ByteReader.Failure.corrupt }
        var ids: [Int64] = []
        ids.reserveCapacity(Int(count))
        for _ in 0..<count { ids.append(try reader.signed()) }
        return QueryLookahead(stamp: stamp, ids: ids, endsGroup: endsGroup)
    }

    private static func writeOptional(_ value: FieldValue?, into writer: inout ByteWriter) {
        if let value {
            writer.byte(1)
            FieldCoder.writeValue(value, into: &writer)
        } else {
            writer.byte(0)
        }
    }

    private static func readOptional(from reader: inout ByteReader) throws -> FieldValue? {
        try reader.byte() == 1 ? try FieldCoder.readValue(from: &reader) : nil
    }
}

/// Milliseconds that a `Date` holds exactly (|value| <= 2^53): a cursor whose checksum is right
/// but whose contents were not written by Stratus may hold more, and converting such a date
/// back to milliseconds would overflow.
private func exactMilliseconds(_ value: Int64) throws -> Int64 {
    guard value.magnitude <= 1 << 53 else { throw ByteReader.Failure.corrupt }
    return value
}

/// Refuses a decoded value holding a date out of that range.
private func checkDates(_ value: FieldValue) throws {
    switch value {
    case .timestamp(let date):
        guard (date.timeIntervalSince1970 * 1000).magnitude <= Double(1 << 53) else { throw ByteReader.Failure.corrupt }
    case .location(let location):
        if let date = location.timestamp { try checkDates(.timestamp(date)) }
    case .list(_, let items):
        for item in items { try checkDates(item) }
    default:
        break
    }
}
