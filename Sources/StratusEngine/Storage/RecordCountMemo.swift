/// A type's record count in a zone, counted once by a query's storage: the end of a two-sort
/// answer asks how many records lack each sort field, and each ask counted the type's records
/// anew (a tenth of a second at a million). A query reads one snapshot, so the count holds for
/// the storage's life.
package final class RecordCountMemo {
    private var counted: Int?

    package init() {}

    /// The count, from `count` the first time.
    package func value(_ count: () throws -> Int) rethrows -> Int {
        if let counted { return counted }
        let value = try count()
        counted = value
        return value
    }
}
