import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// SQL functions the query planner calls.
enum SQLFunctions {
    /// `stratus_distance(lat1, lon1, lat2, lon2)`: great-circle kilometres, the same formula the
    /// in-memory evaluator uses, so both agree to the last bit.
    static let distance = DatabaseFunction("stratus_distance", argumentCount: 4, pure: true) { values in
        guard let lat1 = Double.fromDatabaseValue(values[0]), let lon1 = Double.fromDatabaseValue(values[1]),
              let lat2 = Double.fromDatabaseValue(values[2]), let lon2 = Double.fromDatabaseValue(values[3]) else { return nil }
        return Location(latitude: lat1, longitude: lon1).distance(to: Location(latitude: lat2, longitude: lon2))
    }
}
