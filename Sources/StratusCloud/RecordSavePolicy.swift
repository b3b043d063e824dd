/// How a save treats the server's copy of a record, as `CKModifyRecordsOperation.RecordSavePolicy`.
public enum RecordSavePolicy: String, Sendable, CaseIterable {
    /// Save only if the record's change tag matches the server's; otherwise fail with
    /// `serverRecordChanged` and hand back the server's record. The default.
    case ifServerRecordUnchanged = "if-unchanged"
    /// Write the keys the client changed, whatever the server holds.
    case changedKeys = "changed-keys"
    /// Write every key the client holds; keys only the server has are kept.
    case allKeys = "all-keys"
}
