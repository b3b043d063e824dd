import StratusCloud

/// What an export (`X`) reports back.
enum ExportMessage: Sendable {
    /// Records written by an export so far (`total` when known).
    case progress(job: Int, written: Int, total: Int?)
    case finished(job: Int, Result<ExportSummary, CloudKitError>)
}
