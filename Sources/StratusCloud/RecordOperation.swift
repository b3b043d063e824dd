/// One item of a modify: a save or a delete, with what it checks against the server's copy of
/// its record. CloudKit Web Services' operation types are these (`create`, `update` and
/// `replace` are saves under ``SaveRule``s; `delete` is a delete with a change tag), so a
/// request mixing them is still one call, checked and written in one transaction.
public enum RecordOperation: Sendable {
    /// Saves `record` as `rule` says.
    case save(Record, SaveRule)
    /// Deletes the record (and what points at it with DELETE_SELF). With `ifChangeTag`, only
    /// while the server's record still has that tag: otherwise `serverRecordChanged`, carrying
    /// the server's record.
    case delete(RecordID, ifChangeTag: String?)

    /// The record the operation is about.
    public var recordID: RecordID {
        switch self {
        case .save(let record, _): return record.recordID
        case .delete(let recordID, _): return recordID
        }
    }
}

/// How one save treats the server's copy of its record: CloudKit's save policy, and the two
/// things CKWS's `update` and `replace` add to it.
public struct SaveRule: Sendable, Hashable {
    public var policy: RecordSavePolicy
    /// The record is stored with exactly its fields: the server's fields it leaves out are
    /// cleared (CKWS `replace`, `forceReplace`) instead of kept.
    public var replacesFields: Bool
    /// A record without a type takes the type of the server's record (CKWS `update`, which may
    /// leave the type out).
    public var typeFromServer: Bool

    public init(policy: RecordSavePolicy = .ifServerRecordUnchanged, replacesFields: Bool = false, typeFromServer: Bool = false) {
        self.policy = policy
        self.replacesFields = replacesFields
        self.typeFromServer = typeFromServer
    }
}
