import StratusCloud
import StratusEngine
import StratusModel

extension SQLiteQueryStorage {
    /// The query storage of one zone and record type, inside the engine's transaction.
    init(_ transaction: SQLiteTransaction, zoneRowID: Int64, typeID: Int64) {
        self.init(db: transaction.sqlite, zoneRowID: zoneRowID, typeID: typeID)
    }
}
