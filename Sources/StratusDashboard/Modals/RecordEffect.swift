import StratusCloud
import StratusModel

/// The inspector's, the record form's and a delete's work on one record.
enum RecordEffect: Sendable {
    case load(job: Int, recordID: RecordID, scope: DatabaseScope, purpose: RecordLoadPurpose)
    case save(job: Int, record: Record, policy: RecordSavePolicy, scope: DatabaseScope, isNew: Bool)
    case delete(job: Int, recordID: RecordID, scope: DatabaseScope)
    /// A mirrored object's relationships, read from its zone for the Core Data lens.
    case readGraph(RecordID, scope: DatabaseScope, recordTypes: [RecordTypeSchema])
}
