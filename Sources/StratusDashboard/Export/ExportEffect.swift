/// An export's work (`X`).
enum ExportEffect: Sendable {
    /// Writes the current result to `path` (JSON lines, or CSV for `.csv`).
    case write(job: Int, ResultExport, path: String)
}
