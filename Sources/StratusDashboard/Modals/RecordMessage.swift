import StratusCloud
import StratusEngine

/// What the inspector, the record form and a delete report back.
enum RecordMessage: Sendable {
    case loaded(job: Int, Result<Record, CloudKitError>, purpose: RecordLoadPurpose)
    case saved(job: Int, Result<Record, CloudKitError>, isNew: Bool)
    case deleted(job: Int, Result<[RecordID], CloudKitError>, recordID: RecordID)
    case graphRead(RecordID, Result<CoreDataGraph, CloudKitError>)
}

/// What a fetched single record is for.
enum RecordLoadPurpose: Hashable, Sendable {
    /// Refresh the inspector on top (it showed only the desired keys).
    case refreshInspector
    /// Open an inspector on it (a reference followed, a change event opened).
    case openInspector
    /// Open the edit form on it.
    case edit
}
