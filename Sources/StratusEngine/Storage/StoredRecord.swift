import Foundation
import GRDB
import StratusModel

/// A `record` row as the write and read paths use it.
struct StoredRecord {
    var id: Int64
    var zoneRowID: Int64
    var name: String
    var typeID: Int64
    var fieldsBlob: Data
    var changeTag: String
    var sequence: Int64
    var createdAt: Int64
    var createdBy: String
    var modifiedAt: Int64
    var modifiedBy: String
    var parent: String?

    static let columns = "id, zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent"
    /// `columns` of the record table aliased `r`, for joins.
    static let joinedColumns = columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    /// Reads the `columns` starting at column `offset` of `row`.
    init(row: Row, offset: Int = 0) {
        id = row[offset]
        zoneRowID = row[offset + 1]
        name = row[offset + 2]
        typeID = row[offset + 3]
        fieldsBlob = row[offset + 4]
        changeTag = row[offset + 5]
        sequence = row[offset + 6]
        createdAt = row[offset + 7]
        createdBy = row[offset + 8]
        modifiedAt = row[offset + 9]
        modifiedBy = row[offset + 10]
        parent = row[offset + 11]
    }

    func fields() throws -> [String: FieldValue] {
        do {
            return try FieldCoder.decode(fieldsBlob)
        } catch {
            throw CloudKitError(.internalError, "Record '\(name)' is stored in a form this build cannot read; the store may be damaged.")
        }
    }

    /// The record as the API hands it out.
    func record(zoneID: ZoneID, typeName: String, desiredKeys: [String]? = nil, decodedFields: [String: FieldValue]? = nil) throws -> Record {
        var fields = desiredKeys == [] ? [:] : try decodedFields ?? fields()
        if let desiredKeys, !desiredKeys.isEmpty {
            let wanted = Set(desiredKeys)
            fields = fields.filter { wanted.contains($0.key) }
        }
        return Record(stored: RecordID(recordName: name, zoneID: zoneID), recordType: typeName, fields: fields,
                      changeTag: changeTag, created: FieldValue.date(milliseconds: createdAt), createdBy: createdBy,
                      modified: FieldValue.date(milliseconds: modifiedAt), modifiedBy: modifiedBy,
                      parent: parent.map { Reference(recordName: $0) })
    }

    static func find(zoneRowID: Int64, name: String, in db: GRDB.Database) throws -> StoredRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM record WHERE zone_id = ? AND name = ?"),
                         arguments: [zoneRowID, name]).map { StoredRecord(row: $0) }
    }

    static func find(id: Int64, in db: GRDB.Database) throws -> StoredRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM record WHERE id = ?"), arguments: [id]).map { StoredRecord(row: $0) }
    }
}
