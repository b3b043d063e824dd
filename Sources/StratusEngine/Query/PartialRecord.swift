import StratusModel
import StratusPredicates
import StratusCloud

/// A record as a scan sees it before deciding to load it: only the custom fields its query's
/// residual terms and sorts read (``FieldSelection``). Usable only for queries that read no
/// system field and search no "every string field" tokens (``fieldsRead(by:sorts:)``).
struct PartialRecord: FilterableRecord {
    let selection: FieldSelection
    /// The selected fields' values, in the selection's order: a scan refills them row by row,
    /// the filter's first.
    var values: [FieldValue?]

    init(selection: FieldSelection) {
        self.selection = selection
        values = [FieldValue?](repeating: nil, count: selection.names.count)
    }

    func value(for key: FieldKey) -> FieldValue? {
        guard case .custom(let name, _) = key, let index = selection.names.firstIndex(of: name) else { return nil }
        return values[index]
    }

    /// The custom fields that deciding whether a record matches, and where it sorts, reads;
    /// nil when that needs more than custom fields (system fields, a search of every string
    /// field), so the whole record must be loaded.
    static func fieldsRead(by filter: QueryFilter, sorts: [SortTerm]) -> FieldSelection? {
        var names: [String] = []
        func custom(_ key: FieldKey) -> Bool {
            guard case .custom(let name, _) = key else { return false }
            names.append(name)
            return true
        }
        for term in filter.terms {
            switch term {
            case .compare(let key, _, _), .oneOf(let key, _, _), .listContains(let key, _, _), .listContainsAny(let key, _, _),
                 .beginsWith(let key, _, _), .between(let key, _, _), .withinDistance(let key, _, _, _):
                guard custom(key) else { return nil }
            case .tokens(_, _, let fields):
                guard !fields.isEmpty else { return nil }
                names += fields
            case .never:
                break
            }
        }
        let filterCount = names.count
        for sort in sorts {
            guard custom(sort.key) else { return nil }
        }
        return FieldSelection(filter: names[..<filterCount], sorts: names[filterCount...])
    }
}
