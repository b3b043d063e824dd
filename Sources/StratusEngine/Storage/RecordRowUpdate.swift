import Foundation
import StratusCloud

/// What replacing a record does to its row.
package enum RecordRowUpdate {
    /// Every field and system field (a save, a restore).
    case all(RecordRow)
    /// The fields alone, under a new tag and sequence (a schema change dropped some).
    case fields(blob: Data, changeTag: String, sequence: Int64, modifiedAt: Int64, modifiedBy: String, changedKeys: String?)
    /// Nothing: only the index rows change.
    case unchanged

    /// The fields' blob the row holds after the update; nil when it keeps its own.
    package var blob: Data? {
        switch self {
        case .all(let row): return row.blob
        case .fields(let blob, _, _, _, _, _): return blob
        case .unchanged: return nil
        }
    }
}
