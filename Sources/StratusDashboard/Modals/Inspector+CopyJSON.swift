import StratusCKWS
import StratusCloud
import StratusEngine

/// `Y` in the inspector: the whole record as CloudKit Web Services JSON, as `records/lookup`
/// answers it for the user acting, for a test fixture, a bug report or a `curl` body.
extension Inspector {
    static func copyRecordJSON(_ state: inout DashboardState, _ inspector: InspectorState) -> [Effect] {
        guard inspector.loadingJob == nil else {
            state.status = .note("The record is still loading; copy it when its fields are all shown.")
            return []
        }
        let text = recordJSON(inspector.record, acting: state.acting)
        let record = inspector.record
        state.status = StatusMessage("Copied \(record.recordType) \(record.recordName) as Web Services JSON "
                                     + "(\(ViewKit.count(text.utf8.count, "byte"))).", kind: .success)
        return [.copy(text)]
    }

    /// The record's JSON, indented: the acting user's record name stands in for the default
    /// owner, as Web Services names it to that user.
    static func recordJSON(_ record: Record, acting: Caller?) -> String {
        let owner: String? = if case .user(let name)? = acting { name } else { nil }
        return JSONWriter.string(RecordJSON.encode(record, owner: owner), pretty: true)
    }
}
