import Foundation
import StratusCloud

/// A record as written: its zone, name and type, its fields' blob and its system fields.
package struct RecordRow {
    package var zoneRowID: Int64
    package var name: String
    package var typeID: Int64
    package var blob: Data
    package var changeTag: String
    package var sequence: Int64
    package var createdAt: Int64
    package var createdBy: String
    package var modifiedAt: Int64
    package var modifiedBy: String
    package var parent: String?
    /// `ChangedKeys.encode`d; nil when unknown (a restored record).
    package var changedKeys: String?

    /// Every stored property: a storage backend makes these for rows it writes itself.
    package init(zoneRowID: Int64, name: String, typeID: Int64, blob: Data, changeTag: String, sequence: Int64, createdAt: Int64,
                 createdBy: String, modifiedAt: Int64, modifiedBy: String, parent: String?, changedKeys: String?) {
        self.zoneRowID = zoneRowID
        self.name = name
        self.typeID = typeID
        self.blob = blob
        self.changeTag = changeTag
        self.sequence = sequence
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.modifiedAt = modifiedAt
        self.modifiedBy = modifiedBy
        self.parent = parent
        self.changedKeys = changedKeys
    }
}
