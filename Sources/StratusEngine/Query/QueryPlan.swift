import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// How a query finds its candidates: through one index (the driver), with every term then
/// checked on the record by the in-memory evaluator, so storage and evaluator cannot disagree.
///
/// A plan speaks of indexes, not of tables: ``QueryStorage`` reads each driver the way its
/// storage keeps that index.
///
/// A *streaming* driver yields each record at most once in a total order (value, record id),
/// so a page stops after `limit` matches and the cursor resumes with a keyset condition. Other
/// drivers collect candidate ids first (list fields, several values, text, locations).
package struct QueryPlan {
    package struct Bound {
        package var value: IndexValue
        package var inclusive: Bool
    }

    package enum Driver {
        /// Matches nothing (FALSEPREDICATE).
        case nothing
        /// Records by name (`recordID == %@`, `recordID IN %@`).
        case names([String])
        /// A field's index entries, by exact value (or case-folded string: `keys` are then
        /// folded keys), in record id order.
        case values(fieldID: Int64, keys: [IndexValue], folded: Bool, streaming: Bool)
        /// A scalar field's index entries within bounds, in value order.
        case range(fieldID: Int64, lower: Bound?, upper: Bound?, isList: Bool)
        /// A system time of the records (creation or modification), in order.
        case systemTime(SystemTime, lower: Bound?, upper: Bound?)
        /// The full-text index: records of the type holding all (or any) of the tokens, in
        /// record id order.
        case text(tokens: [String], matchAll: Bool)
        /// A location field's index entries whose Z-order codes fall in the ranges that cover a
        /// latitude/longitude box.
        case location(fieldID: Int64, box: LocationBox)
        /// Every record of the type in the zone, in modification order.
        case typeScan
    }

    /// The record times kept beside every record, each with its own index.
    package enum SystemTime {
        case created
        case modified
    }

    var driver: Driver
    /// Whether the driver yields records in the query's requested order (or none was asked).
    var driverIsOrdered: Bool
    var descending: Bool
    /// Set when the driver is the unbounded index of the sort field: records without that field
    /// are not in it, so they follow, in modification order, once the index is exhausted.
    var appendsRecordsLackingSortField: FieldKey?
    /// The filter term the driver answers exactly, which the evaluator then skips.
    var exactTerm: Int?
    /// With one sort and a selective term driving: the sort field's index, to stream from
    /// instead (every term then checked on the record) when the term turns out to match many
    /// records, so a page reads a page's worth rather than every match.
    var sortIndex: (driver: Driver, key: FieldKey)?
    /// Several sorts: the driver gives the first one's order, and each run of equal first
    /// values is sorted by the others (see `QueryExecutor.runGrouped`).
    var groupsTies = false

    /// The plan that streams from ``sortIndex``.
    var streamingFromSortIndex: QueryPlan? {
        sortIndex.map { index in
            var plan = QueryPlan(driver: index.driver, driverIsOrdered: true, descending: descending, appendsRecordsLackingSortField: index.key)
            plan.groupsTies = groupsTies
            return plan
        }
    }

    init(driver: Driver, driverIsOrdered: Bool, descending: Bool, appendsRecordsLackingSortField: FieldKey? = nil, exactTerm: Int? = nil) {
        self.driver = driver
        self.driverIsOrdered = driverIsOrdered
        self.descending = descending
        self.appendsRecordsLackingSortField = appendsRecordsLackingSortField
        self.exactTerm = exactTerm
    }

    /// The terms still to check on each candidate.
    func residual(of filter: QueryFilter) -> QueryFilter {
        guard let exactTerm else { return filter }
        var terms = filter.terms
        terms.remove(at: exactTerm)
        return QueryFilter(terms: terms)
    }

    var isStreaming: Bool {
        switch driver {
        case .values(_, _, _, let streaming): return streaming
        case .range(_, _, _, let isList): return !isList
        case .systemTime, .typeScan, .text: return true
        default: return false
        }
    }
}

/// A latitude/longitude rectangle that holds a circle, split at the antimeridian if needed.
package struct LocationBox {
    package var minLatitude: Double
    package var maxLatitude: Double
    /// One or two longitude ranges.
    package var longitudes: [ClosedRange<Double>]

    init(center: Location, kilometres: Double) {
        let degreesLatitude = kilometres / 111.0 + 0.01
        minLatitude = max(-90, center.latitude - degreesLatitude)
        maxLatitude = min(90, center.latitude + degreesLatitude)
        let cosine = cos(max(abs(minLatitude), abs(maxLatitude)) * .pi / 180)
        let degreesLongitude = cosine < 1e-6 ? 360 : kilometres / (111.0 * cosine) + 0.01
        if degreesLongitude >= 180 {
            longitudes = [-180...180]
        } else {
            let low = center.longitude - degreesLongitude, high = center.longitude + degreesLongitude
            if low < -180 {
                longitudes = [(low + 360)...180, -180...high]
            } else if high > 180 {
                longitudes = [low...180, -180...(high - 360)]
            } else {
                longitudes = [low...high]
            }
        }
    }
}
