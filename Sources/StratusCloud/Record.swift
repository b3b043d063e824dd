import Foundation
import StratusModel

/// A record: its ID, type, system fields and typed fields.
///
/// Like `CKRecord` it remembers which keys were set since it was made or fetched, so the
/// `changedKeys` save policy writes exactly those.
public struct Record: Hashable, Sendable {
    public var recordID: RecordID
    public var recordType: String
    public private(set) var fields: [String: FieldValue]
    /// Keys set or removed since the record was made or fetched.
    public private(set) var changedKeys: Set<String>

    /// The server's change tag; nil for a record never saved.
    public var recordChangeTag: String?
    public var creationDate: Date?
    public var modificationDate: Date?
    public var creatorUserRecordName: String?
    public var lastModifiedUserRecordName: String?
    /// The parent reference CloudKit uses for sharing hierarchies.
    public var parent: Reference?

    /// A new record, not yet saved.
    public init(recordType: String, recordID: RecordID = RecordID(), fields: [String: FieldValue] = [:]) {
        self.recordID = recordID
        self.recordType = recordType
        self.fields = [:]
        self.changedKeys = []
        for (key, value) in fields { self[key] = value }
    }

    /// A record read back as it was stored (a restore's line), with no changed keys: its
    /// fields are taken as they are, not set one by one.
    package init(restored recordID: RecordID, recordType: String, fields: [String: FieldValue]) {
        self.recordID = recordID
        self.recordType = recordType
        self.fields = fields
        self.changedKeys = []
    }

    /// A record as the store holds it, with no changed keys.
    package init(stored recordID: RecordID, recordType: String, fields: [String: FieldValue], changeTag: String,
         created: Date, createdBy: String, modified: Date, modifiedBy: String, parent: Reference?) {
        self.recordID = recordID
        self.recordType = recordType
        self.fields = fields
        self.changedKeys = []
        self.recordChangeTag = changeTag
        self.creationDate = created
        self.creatorUserRecordName = createdBy
        self.modificationDate = modified
        self.lastModifiedUserRecordName = modifiedBy
        self.parent = parent
    }

    public var recordName: String { recordID.recordName }

    /// A field's value; setting nil removes the field. Either way the key counts as changed.
    public subscript(key: String) -> FieldValue? {
        get { fields[key] }
        set {
            fields[key] = newValue
            changedKeys.insert(key)
        }
    }

    /// Sets fields as decoding does, each counting as changed unless not `markingChanged` (a
    /// restored record); a nil value removes the field. One dictionary sized up front, where
    /// setting them one by one grew it step by step.
    package mutating func setFields(_ values: [(String, FieldValue?)], markingChanged: Bool = true) {
        fields.reserveCapacity(fields.count + values.count)
        guard markingChanged else {
            for (key, value) in values { fields[key] = value }
            return
        }
        changedKeys.reserveCapacity(changedKeys.count + values.count)
        for (key, value) in values { self[key] = value }
    }

    /// Puts every value in the form the store keeps (dates to the millisecond), as a save does.
    package mutating func normalizeFields() {
        // Most values are normal already (decoded from milliseconds): change only the others,
        // instead of building a new dictionary per record.
        for (name, value) in fields where !value.isNormalized { fields[name] = value.normalized }
    }

    /// Forgets which keys changed, as a fetched record starts.
    public mutating func clearChangedKeys() { changedKeys = [] }

    /// The record with only `keys` among its fields (nil keeps all), as `desiredKeys` trims.
    public func trimmed(to keys: [String]?) -> Record {
        guard let keys else { return self }
        var copy = self
        let wanted = Set(keys)
        copy.fields = fields.filter { wanted.contains($0.key) }
        return copy
    }
}
