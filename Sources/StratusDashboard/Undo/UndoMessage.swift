import StratusCloud

/// What undo and redo report back.
enum UndoMessage: Sendable {
    /// A change this dashboard made, for undo.
    case undoable(UndoEntry)
    case finished(job: Int, redo: Bool, Result<(UndoEntry, String), CloudKitError>)
}
