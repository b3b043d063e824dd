/// One event of a zone's change playback.
public enum ZoneChange: Sendable {
    /// The record was made or changed since the token; this is its current state.
    case changed(Record)
    /// The record was deleted since the token.
    case deleted(RecordID, recordType: String)

    public var recordID: RecordID {
        switch self {
        case .changed(let record): return record.recordID
        case .deleted(let recordID, _): return recordID
        }
    }
}
