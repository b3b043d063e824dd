import StratusModel
import StratusCloud

/// The order a page of zone changes is handed out in. CloudKit promises none, so a sync client
/// must cope with any; Stratus plays back in change order by default and can hand a page out
/// in the orders that break clients, on purpose.
public enum PlaybackOrder: String, CaseIterable, Sendable {
    /// The order the changes were made in (the default).
    case sequence
    /// A record after every record of the page it points at (its `parent` and its REFERENCE
    /// fields), deletions last: the order apps apply most easily.
    case parentsFirst = "parents-first"
    /// The reverse: a record before the records it points at, deletions first.
    case childrenFirst = "children-first"
    /// A shuffle of the page, the same for the same seed.
    case shuffled
}

extension ZoneChangesPage {
    /// The page with its changes in `order` (the token and `moreComing` are unchanged: they
    /// mark where the page ends, whatever order its changes come in).
    public func ordered(_ order: PlaybackOrder, seed: UInt64 = 0) -> ZoneChangesPage {
        var page = self
        switch order {
        case .sequence:
            break
        case .parentsFirst:
            page.changes = PlaybackSorter.parentsFirst(changes.compactMap(\.changedRecord)) + changes.filter { $0.changedRecord == nil }
        case .childrenFirst:
            page.changes = changes.filter { $0.changedRecord == nil } + PlaybackSorter.parentsFirst(changes.compactMap(\.changedRecord)).reversed()
        case .shuffled:
            var random = SeededGenerator(seed: seed)
            page.changes.shuffle(using: &random)
        }
        return page
    }
}

extension ZoneChange {
    var changedRecord: Record? {
        if case .changed(let record) = self { return record }
        return nil
    }
}

/// A topological order of records by what they point at within the page.
enum PlaybackSorter {
    static func parentsFirst(_ records: [Record]) -> [ZoneChange] {
        let names = Set(records.map(\.recordName))
        var pointsAt: [String: Set<String>] = [:]
        for record in records {
            var targets: Set<String> = []
            if let parent = record.parent?.recordName { targets.insert(parent) }
            for value in record.fields.values {
                value.forEachElement { element in
                    if case .reference(let reference) = element { targets.insert(reference.recordName) }
                }
            }
            targets.remove(record.recordName)
            pointsAt[record.recordName] = targets.intersection(names)
        }
        // Kahn's algorithm, keeping change order among records that are free at the same time;
        // a cycle (records pointing at each other) keeps its change order.
        var placed: Set<String> = []
        var result: [ZoneChange] = []
        var remaining = records
        while !remaining.isEmpty {
            let ready = remaining.filter { pointsAt[$0.recordName, default: []].isSubset(of: placed) }
            let batch = ready.isEmpty ? [remaining[0]] : ready
            for record in batch {
                result.append(.changed(record))
                placed.insert(record.recordName)
            }
            let taken = Set(batch.map(\.recordName))
            remaining.removeAll { taken.contains($0.recordName) }
        }
        return result
    }
}
