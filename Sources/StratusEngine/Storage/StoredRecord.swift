import Foundation
import StratusModel
import StratusCloud

/// A stored record as the write and read paths use it: its row id, zone, type, encoded fields
/// and system fields.
package struct StoredRecord {
    package var id: Int64
    package var zoneRowID: Int64
    package var name: String
    package var typeID: Int64
    package var fieldsBlob: Data
    package var changeTag: String
    package var sequence: Int64
    package var createdAt: Int64
    package var createdBy: String
    package var modifiedAt: Int64
    package var modifiedBy: String
    package var parent: String?

    /// The fields, decoded.
    package func fields() throws -> [String: FieldValue] {
        do {
            return try FieldCoder.decode(fieldsBlob)
        } catch {
            throw unreadable
        }
    }

    /// The fields, decoded by a batch's decoder (faster for many records of one type).
    func fields(using decoder: FieldDecoder) throws -> [String: FieldValue] {
        do {
            return try decoder.decode(fieldsBlob, shape: typeID)
        } catch {
            throw unreadable
        }
    }

    private var unreadable: CloudKitError {
        CloudKitError(.internalError, "Record '\(name)' is stored in a form this build cannot read; the store may be damaged.")
    }

    /// The record as the API hands it out.
    func record(zoneID: ZoneID, typeName: String, desiredKeys: [String]? = nil, decodedFields: [String: FieldValue]? = nil,
                decoder: FieldDecoder? = nil) throws -> StratusCloud.Record {
        var fields: [String: FieldValue]
        if desiredKeys?.isEmpty == true {
            fields = [:]
        } else if let decodedFields {
            fields = decodedFields
        } else if let decoder {
            fields = try self.fields(using: decoder)
        } else {
            fields = try self.fields()
        }
        if let desiredKeys, !desiredKeys.isEmpty {
            let wanted = Set(desiredKeys)
            fields = fields.filter { wanted.contains($0.key) }
        }
        return Record(stored: RecordID(recordName: name, zoneID: zoneID), recordType: typeName, fields: fields,
                      changeTag: changeTag, created: FieldValue.date(milliseconds: createdAt), createdBy: createdBy,
                      modified: FieldValue.date(milliseconds: modifiedAt), modifiedBy: modifiedBy,
                      parent: parent.map { Reference(recordName: $0) })
    }

    /// Every stored property: a storage backend makes these from its rows.
    package init(id: Int64, zoneRowID: Int64, name: String, typeID: Int64, fieldsBlob: Data, changeTag: String, sequence: Int64, createdAt: Int64, createdBy: String, modifiedAt: Int64, modifiedBy: String, parent: String? = nil) {
        self.id = id
        self.zoneRowID = zoneRowID
        self.name = name
        self.typeID = typeID
        self.fieldsBlob = fieldsBlob
        self.changeTag = changeTag
        self.sequence = sequence
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.modifiedAt = modifiedAt
        self.modifiedBy = modifiedBy
        self.parent = parent
    }
}
