import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

/// Records as CSV for spreadsheets and scripts: a header of `recordName`, `recordType`,
/// `zoneName` and one `field:TYPE` column per field, then one row per record with typed cells.
///
/// Cells: strings as they are, numbers in decimal, timestamps in ISO 8601 with milliseconds
/// (UTC), bytes in base64, a reference as its record name, a location as `LAT,LON`; lists,
/// assets, DELETE_SELF references and locations with more than coordinates as the CKWS JSON
/// value. A bare empty cell is a missing field, `""` an empty string. CSV keeps names, types and
/// fields, not change tags or times: JSON lines are the exact copy.
public struct RecordCSV: Sendable {
    /// One field column.
    public struct Column: Hashable, Sendable {
        public var name: String
        public var type: FieldType

        public init(name: String, type: FieldType) {
            self.name = name
            self.type = type
        }
    }

    /// A problem in a CSV file, naming the row (from 1, the header being row 1) and the column.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var row: Int
        public var column: String
        public var message: String
        public var description: String { "row \(row), column \(column): \(message)" }
    }

    public var columns: [Column]

    public init(columns: [Column]) {
        self.columns = columns
    }

    /// The columns for records of `types`, fields sorted by name. A field that two types give
    /// different types cannot share a column: that is an error naming both.
    public init(types: [RecordTypeSchema]) throws(Problem) {
        var byName: [String: (FieldType, String)] = [:]
        for type in types {
            for field in type.sortedFields {
                if let (existing, owner) = byName[field.name], existing != field.type {
                    throw Problem(row: 1, column: field.name, message: "the field is \(existing) in \(owner) and \(field.type) in \(type.name); export one record type at a time")
                }
                byName[field.name] = (field.type, type.name)
            }
        }
        columns = byName.keys.sorted().map { Column(name: $0, type: byName[$0]!.0) }
    }

    // MARK: - Writing

    /// The header line: `recordName,recordType,zoneName,title:STRING,...`.
    public var headerLine: String {
        CSVText.line(["recordName", "recordType", "zoneName"] + columns.map { "\($0.name):\($0.type.webServicesTag)" })
    }

    /// One record as a line, under this header.
    public func line(_ record: Record) -> String {
        CSVText.line([record.recordName, record.recordType, record.recordID.zoneID.zoneName] + columns.map { column in record[column.name].map(RecordCSV.cell) })
    }

    /// A value as a cell's text.
    public static func cell(_ value: FieldValue) -> String {
        switch value {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return "\(number)"
        case .timestamp(let date): return ISO8601.string(date)
        case .bytes(let data): return data.base64EncodedString()
        case .reference(let reference) where reference.action == .none && !reference.recordName.hasPrefix("{"):
            return reference.recordName
        case .location(let location) where location == Location(latitude: location.latitude, longitude: location.longitude):
            return "\(location.latitude),\(location.longitude)"
        default:
            var out = JSONBytes(capacity: 64)
            RecordWriter().writeValue(value, into: &out)
            return String(decoding: out.bytes, as: UTF8.self)
        }
    }

    // MARK: - Reading

    /// Reads CSV text written by ``line(_:)`` (or by hand, or by a spreadsheet).
    ///
    /// - Parameters:
    ///   - text: the CSV, a header line first.
    ///   - recordType: the type of rows without a `recordType` column or cell.
    ///   - schema: a type's schema, for header columns that name no type (else STRING).
    ///   - zoneID: the zone of rows without a `zoneName` column or cell (of the same owner).
    public static func records(from text: String, recordType: String?, zoneID: ZoneID,
                               schema: (String) -> RecordTypeSchema?) throws -> [Record] {
        let rows: [[String?]]
        do {
            rows = try CSVText.rows(text)
        } catch {
            throw Problem(row: error.row, column: "\(error.column)", message: error.message)
        }
        guard let header = rows.first else { return [] }
        let headerNames = header.map { $0 ?? "" }
        var seen: Set<String> = []
        for name in headerNames where !seen.insert(name).inserted {
            throw Problem(row: 1, column: name, message: "the column appears twice")
        }
        let nameIndex = headerNames.firstIndex(of: "recordName")
        let typeIndex = headerNames.firstIndex(of: "recordType")
        let zoneIndex = headerNames.firstIndex(of: "zoneName")
        if typeIndex == nil && recordType == nil {
            throw Problem(row: 1, column: "recordType", message: "the file has no recordType column; give the type of its records")
        }
        var fieldColumns: [(index: Int, name: String, type: FieldType?)] = []
        for (index, raw) in headerNames.enumerated() where index != nameIndex && index != typeIndex && index != zoneIndex {
            guard !raw.isEmpty else { throw Problem(row: 1, column: "\(index + 1)", message: "a column has no name") }
            if let colon = raw.lastIndex(of: ":") {
                let tag = String(raw[raw.index(after: colon)...])
                guard let type = FieldType(parsing: tag) else {
                    throw Problem(row: 1, column: raw, message: "unknown type \(tag); use STRING, INT64, DOUBLE, TIMESTAMP, BYTES, ASSET, REFERENCE, LOCATION or a *_LIST of them")
                }
                fieldColumns.append((index, String(raw[..<colon]), type))
            } else {
                fieldColumns.append((index, raw, nil))
            }
        }
        var records: [Record] = []
        for (offset, row) in rows.dropFirst().enumerated() {
            let rowNumber = offset + 2
            guard row.count <= headerNames.count else {
                throw Problem(row: rowNumber, column: "\(headerNames.count + 1)", message: "the row has \(row.count) cells; the header has \(headerNames.count)")
            }
            func cell(_ index: Int?) -> String? { index.flatMap { $0 < row.count ? row[$0] : nil } }
            guard let type = cell(typeIndex) ?? recordType else {
                throw Problem(row: rowNumber, column: "recordType", message: "empty; every record needs a type")
            }
            let zone = cell(zoneIndex).map { ZoneID(zoneName: $0, ownerName: zoneID.ownerName) } ?? zoneID
            let recordID = cell(nameIndex).map { RecordID(recordName: $0, zoneID: zone) } ?? RecordID(zoneID: zone)
            var record = Record(recordType: type, recordID: recordID)
            let typeSchema = schema(type)
            for column in fieldColumns {
                guard let text = cell(column.index) else { continue }
                let fieldType = column.type ?? typeSchema?.fields[column.name]?.type ?? .string
                do {
                    record[column.name] = try value(text, as: fieldType).normalized
                } catch {
                    throw Problem(row: rowNumber, column: column.name, message: error.message)
                }
            }
            records.append(record)
        }
        return records
    }

    /// A cell's text as a value of `type`.
    static func value(_ text: String, as type: FieldType) throws(RecordJSON.DecodingError) -> FieldValue {
        func wrong(_ expected: String) -> RecordJSON.DecodingError {
            RecordJSON.DecodingError(path: "", message: "'\(text.prefix(40))' is not \(expected)")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if type.isList || type.base == .asset || (trimmed.hasPrefix("{") && (type.base == .reference || type.base == .location)) {
            guard let json = try? JSONParser.parse(trimmed) else { throw wrong("a JSON \(type.isList ? "array" : "object") of \(type)") }
            return try RecordJSON.decodeValue(json, as: type, path: "", uploadAsset: nil)
        }
        switch type.base {
        case .string: return .string(text)
        case .int64:
            guard let number = Int64(trimmed) else { throw wrong("a whole number (INT64)") }
            return .int64(number)
        case .double:
            guard let number = Double(trimmed), number.isFinite else { throw wrong("a finite number (DOUBLE)") }
            return .double(number)
        case .timestamp:
            if let milliseconds = Int64(trimmed) { return .timestamp(FieldValue.date(milliseconds: milliseconds)) }
            guard let date = ISO8601.parse(trimmed) else { throw wrong("an ISO 8601 date (2024-05-01T10:00:00.000Z) or milliseconds since 1970") }
            return .timestamp(date)
        case .bytes:
            guard let data = Data(base64Encoded: trimmed) else { throw wrong("base64 (BYTES)") }
            return .bytes(data)
        case .reference:
            guard !trimmed.isEmpty else { throw wrong("a record name (REFERENCE)") }
            return .reference(Reference(recordName: trimmed))
        case .location:
            guard let location = Location(coordinates: trimmed) else { throw wrong("LATITUDE,LONGITUDE (LOCATION)") }
            return .location(location)
        case .asset:
            throw wrong("an asset")  // handled above, as JSON
        }
    }
}
