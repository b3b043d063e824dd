import StratusCloud

/// What the inspector, the record form and a delete report back.
enum RecordMessage: Sendable {
    case loaded(job: Int, Result<Record, CloudKitError>, purpose: RecordLoadPurpose)
    case saved(job: Int, Result<Record, CloudKitError>, isNew: Bool)
    case deleted(job: Int, Result<[RecordID], CloudKitError>, recordID: RecordID)
}
