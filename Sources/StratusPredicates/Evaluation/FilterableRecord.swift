import StratusModel

/// What the in-memory evaluator needs from a record.
///
/// Custom fields are looked up by name; the type inside `FieldKey.custom` is what the query
/// expects, not a filter. System fields answer as CloudKit stores them: `recordID`,
/// `createdBy`, `modifiedBy`, `parent`, `share` as `.reference(Reference(recordName:))`,
/// `createTime`/`modTime` as `.timestamp`, `etag` as `.string`.
public protocol FilterableRecord {
    /// The field's value, or nil when the record has none.
    func value(for key: FieldKey) -> FieldValue?
    /// The record's custom field names. Only token searches compiled without a schema (whose
    /// `fields` list is empty) use it, to search every string field.
    var customFieldNames: [String] { get }
}

extension FilterableRecord {
    public var customFieldNames: [String] { [] }
}
