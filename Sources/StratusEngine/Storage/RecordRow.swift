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
}
