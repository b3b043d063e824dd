import Foundation
import StratusCloud

/// A record as written: its zone, name and type, its fields' blob and its system fields.
struct RecordRow {
    var zoneRowID: Int64
    var name: String
    var typeID: Int64
    var blob: Data
    var changeTag: String
    var sequence: Int64
    var createdAt: Int64
    var createdBy: String
    var modifiedAt: Int64
    var modifiedBy: String
    var parent: String?
    /// `ChangedKeys.encode`d; nil when unknown (a restored record).
    var changedKeys: String?
}
