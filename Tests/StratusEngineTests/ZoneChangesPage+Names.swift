import StratusEngine
import StratusCloud

extension ZoneChangesPage {
    /// The page as the tests read it: record names in order, a deletion as `-name`.
    var playedNames: [String] {
        changes.map { change in
            switch change {
            case .changed(let record): return record.recordName
            case .deleted(let recordID, _): return "-" + recordID.recordName
            }
        }
    }
}
