/// Undo's and redo's work.
enum UndoEffect: Sendable {
    /// Undoes (or redoes) a change this dashboard made.
    case run(job: Int, UndoEntry, redo: Bool)
}
