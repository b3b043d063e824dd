import Foundation
import StratusModel
import StratusPredicates
import StratusCloud

/// A stored record with its fields decoded, as the evaluator and the sorter see it.
struct LoadedRecord: FilterableRecord {
    let stored: StoredRecord
    let fields: [String: FieldValue]

    func value(for key: FieldKey) -> FieldValue? {
        switch key {
        case .custom(let name, _): return fields[name]
        case .system(let field):
            switch field {
            case .recordID: return .reference(Reference(recordName: stored.name))
            case .createTime: return .timestamp(FieldValue.date(milliseconds: stored.createdAt))
            case .modTime: return .timestamp(FieldValue.date(milliseconds: stored.modifiedAt))
            case .createdBy: return .reference(Reference(recordName: stored.createdBy))
            case .modifiedBy: return .reference(Reference(recordName: stored.modifiedBy))
            case .etag: return .string(stored.changeTag)
            case .parent: return stored.parent.map { .reference(Reference(recordName: $0)) }
            case .share: return nil
            }
        }
    }

    var customFieldNames: [String] { Array(fields.keys) }
}

extension FilterableRecord {
    /// The value a sort term orders by: the field's value, or the distance from a point.
    func sortValue(_ term: SortTerm) -> FieldValue? {
        guard let value = value(for: term.key) else { return nil }
        if let center = term.distanceFrom {
            guard case .location(let location) = value else { return nil }
            return .double(location.distance(to: center))
        }
        return value
    }
}
