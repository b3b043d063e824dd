import StratusCloud
import StratusModel

extension Dictionary where Key == String, Value == FieldValue {
    /// The names of the records these fields point at with DELETE_SELF references: a backend
    /// that keeps no reference rows finds a cascade's sources by them.
    package var deleteSelfTargets: Set<String> {
        var targets = Set<String>()
        for value in values where value.type.base == .reference {
            value.forEachElement { if case .reference(let reference) = $0, reference.action == .deleteSelf { targets.insert(reference.recordName) } }
        }
        return targets
    }
}
