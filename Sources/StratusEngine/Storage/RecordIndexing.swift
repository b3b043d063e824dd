import StratusCloud
import StratusModel

/// Adds one zone and type's new records' index rows (value, full-text and reference rows), as
/// ``RecordStorage/indexer(zoneRowID:type:buffer:)`` makes it for a run of records.
package protocol RecordIndexing {
    /// Adds the index rows of a new record's `fields`. `tokens`: the string fields' full-text
    /// tokens when already computed (``PreparedRecord``); `text`: the record's full-text row
    /// made ahead (``PreparedRecord/text``); `declaredFields`: this type's entry for each of
    /// `fields`, in the order `fields` iterates, when known.
    func add(recordID: Int64, fields: [String: FieldValue], tokens: FieldTokens?, text: [UInt8]?,
             declaredFields: [SchemaCatalog.TypeEntry.Field]?) throws
}
