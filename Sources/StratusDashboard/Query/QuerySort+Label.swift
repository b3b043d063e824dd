import StratusModel
import StratusPredicates

extension QuerySort {
    /// How the Query tab's header shows it: `startDate ↓`, `distance from 35.68,139.77 ↑`.
    var label: String {
        let arrow = ascending ? "↑" : "↓"
        guard let center = distanceFrom else { return "\(key) \(arrow)" }
        return "distance from \(Self.coordinates(center)) \(arrow)"
    }

    /// `35.68,139.77`: the shortest text of each number, no trailing `.0`.
    static func coordinates(_ location: Location) -> String {
        func text(_ value: Double) -> String {
            let description = "\(value)"
            return description.hasSuffix(".0") ? String(description.dropLast(2)) : description
        }
        return "\(text(location.latitude)),\(text(location.longitude))"
    }
}
