import StratusCloud

/// One change this dashboard made, as undo needs it: the record before and after a save, or
/// the records a delete removed (whole, so undo can put them back).
struct UndoEntry: Sendable {
    enum Change: Sendable {
        /// `before` nil: the save made the record.
        case save(before: Record?, after: Record)
        /// `complete` false: more records went than the session keeps for undo (those are
        /// not put back).
        case delete([Record], complete: Bool)
    }

    var change: Change
    var scope: DatabaseScope
    /// The job that made the change (a bulk delete adds its later batches to its entry).
    var job: Int?

    /// What the change was, for the status line: `save of trip-1`, `delete of 1,200 records`.
    var label: String {
        switch change {
        case .save(let before, let after): return "\(before == nil ? "creation" : "save") of \(after.recordName)"
        case .delete(let records, _) where records.count == 1: return "delete of \(records[0].recordName)"
        case .delete(let records, _): return "delete of \(records.count.formatted()) records"
        }
    }
}

/// The session's changes, for `U` (undo) and `R` (redo): undo moves the newest change to the
/// redo side; a new change clears the redo side, as editors do.
struct UndoStack: Sendable {
    private(set) var done: [UndoEntry] = []
    private(set) var undone: [UndoEntry] = []
    /// Records a delete keeps for undo; a bulk delete beyond it is undone only in part (and says so).
    static let maximumKeptRecords = 10_000

    init() {}

    mutating func record(_ entry: UndoEntry) {
        done.append(entry)
        undone.removeAll()
    }

    /// Adds a later batch of a bulk delete to its entry.
    mutating func append(deleted records: [Record], job: Int) {
        guard let index = done.lastIndex(where: { $0.job == job }), case .delete(let earlier, let complete) = done[index].change else { return }
        let room = max(0, Self.maximumKeptRecords - earlier.count)
        done[index].change = .delete(earlier + records.prefix(room), complete: complete && records.count <= room)
    }

    /// The entry being undone or redone, off both sides until it ends.
    private(set) var inFlight: (entry: UndoEntry, redo: Bool)?

    /// The entry undo (or redo) takes next.
    mutating func take(redo: Bool) -> UndoEntry? {
        guard inFlight == nil, let entry = redo ? undone.popLast() : done.popLast() else { return nil }
        inFlight = (entry, redo)
        return entry
    }

    /// It worked: the entry, with the records as they now are, moves to the other side.
    mutating func finish(_ updated: UndoEntry) {
        guard let (_, redo) = inFlight else { return }
        inFlight = nil
        if redo { done.append(updated) } else { undone.append(updated) }
    }

    /// It failed: the entry goes back where it was.
    mutating func fail() {
        guard let (entry, redo) = inFlight else { return }
        inFlight = nil
        if redo { undone.append(entry) } else { done.append(entry) }
    }
}
