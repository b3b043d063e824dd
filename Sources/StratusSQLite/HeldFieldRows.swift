import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The `field_value` rows an ``IndexRowBuffer`` holds for one field of one zone, as plain
/// (value, record) pairs, so sorting compares numbers or strings, never tagged values.
struct HeldFieldRows: Sendable {
    var integers: [(Int64, Int64)] = []
    var reals: [(Double, Int64)] = []
    var texts = HeldTexts()
    /// Strings are case-folded for `folded`; reference names are not.
    var folds: Bool
    /// After ``sort()``: the indices of `texts` in key order.
    private(set) var textOrder: [Int] = []

    init(folds: Bool) { self.folds = folds }

    var count: Int { integers.count + reals.count + texts.count }

    /// Puts the rows in `field_value`'s key order: by value, then record. Numbers are sorted in
    /// place (a sorted copy would allocate as much again); strings by SQLite's BINARY order.
    mutating func sort() {
        integers.sort(by: HeldFieldRows.keyOrder)
        reals.sort(by: HeldFieldRows.keyOrder)
        textOrder = texts.keyOrder()
    }

    /// Empties the rows but keeps their memory: a transaction that fills the buffer more than
    /// once reuses it instead of growing (and page-faulting) every array again.
    mutating func removeAll() {
        integers.removeAll(keepingCapacity: true)
        reals.removeAll(keepingCapacity: true)
        texts.removeAll()
        textOrder.removeAll(keepingCapacity: true)
    }

    /// (value, record) order.
    private static func keyOrder<Number: Comparable>(_ a: (Number, Int64), _ b: (Number, Int64)) -> Bool {
        a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
    }
}

/// Sorts fields' held rows one after another on a helper thread and hands each over as soon as
/// it is sorted, so the writing thread inserts one field while the next is being sorted.
///
/// At the end of an import the reading thread has finished and its core is free; sorting there
/// took a fifth of the writer's last stretch, when it writes every held row alone.
final class HeldRowsSorter: @unchecked Sendable {
    /// The fields, in the order they are sorted and taken.
    let keys: [IndexRowBuffer.FieldKey]
    private let condition = NSCondition()
    private var sorted: [Int: HeldFieldRows] = [:]
    private var cancelled = false
    /// The helper thread has finished (every field sorted, or cancelled).
    private var stopped = false
    private var fieldsSorted = 0
    /// Touched only by the helper thread once it starts; each field is taken out before it is
    /// sorted, so its arrays are sorted in place instead of copied.
    private var unsorted: [HeldFieldRows]

    /// Starts sorting `fields`, in order. Pass them with `consume` (or as a new array): a copy
    /// left behind would make each sort copy its arrays first.
    init(_ fields: consuming [(IndexRowBuffer.FieldKey, HeldFieldRows)]) {
        keys = fields.map(\.0)
        unsorted = fields.indices.map { index in
            var rows = HeldFieldRows(folds: false)
            swap(&rows, &fields[index].1)
            return rows
        }
        let thread = Thread { [self] in
            for index in unsorted.indices where !isCancelled {
                var rows = HeldFieldRows(folds: false)
                swap(&rows, &unsorted[index])
                rows.sort()
                condition.lock()
                sorted[index] = rows
                fieldsSorted += 1
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Stops sorting after the field under way (nobody will take the rest), and waits until the
    /// helper has finished, so no field's rows outlive the write that held them.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !stopped { condition.wait() }
        sorted.removeAll()
        condition.unlock()
    }

    private var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// How many fields have been sorted so far.
    var sortedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return fieldsSorted
    }

    /// Field `index`'s rows, sorted; waits until they are. Each field is taken once, before
    /// ``cancel()``.
    func take(_ index: Int) -> HeldFieldRows {
        condition.lock()
        defer { condition.unlock() }
        while sorted[index] == nil && !stopped { condition.wait() }
        guard let rows = sorted.removeValue(forKey: index) else {
            preconditionFailure("field \(index) of the held rows was taken twice, or after the sorting was cancelled")
        }
        return rows
    }
}
