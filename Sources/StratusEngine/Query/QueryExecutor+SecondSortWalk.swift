import StratusModel
import StratusPredicates
import StratusCloud

/// Deep pages of a two-sort query inside a large group: instead of reading every record of the
/// cursor's group (thousands at a million records, however deep the page), walk the second
/// sort's index from the cursor and keep the rows whose records are in the group. A page then
/// costs about a page's worth of the second index times how many records share each first
/// value, not the group's size.
extension QueryExecutor {
    /// Groups smaller than this are read whole: walking pays only when the group is large.
    static let defaultWalkableGroupSize = 4_096

    /// The page after `after` (or the first page, when nil) when the query sorts by two fields,
    /// the page starts inside a group (the run of records whose first sort value is `groupKey`)
    /// of at least ``walkableGroupSize`` records and the rest of that group fills the page:
    /// exactly `limit` records, with another known to follow. Nil when that does not apply, or
    /// when the walk would cost more than reading the group (few of the second index's rows are
    /// in the group, or few of its records match); the caller then reads the group.
    func walkSecondSort(groupKey: IndexValue, after: (values: [FieldValue?], id: Int64)?) throws -> [(values: [FieldValue?], record: LoadedRecord)]? {
        guard let (firstField, secondField) = walkableFields else { return nil }
        var cursor: (key: IndexValue, id: Int64)?
        if let after {
            guard let cursorValue = after.values[1], let cursorKey = IndexKey(cursorValue)?.value else { return nil }
            cursor = (cursorKey, after.id)
        }
        let group = QueryPlan.Driver.values(fieldID: firstField, keys: [groupKey], folded: false, streaming: true)
        guard try storage.countIDs(of: group, upTo: walkableGroupSize) >= walkableGroupSize else { return nil }
        let members = try storage.candidateIDs(of: group, stoppingAt: .max)
        let descending = !query.sorts[1].ascending
        var walk = SecondSortWalk(members: members, cursor: cursor, limit: limit, budget: members.count * SecondSortWalk.budgetPerMember)
        let load = { (id: Int64) in try loadMatching(id).map { (query.sorts.map($0.sortValue), $0) } }
        var position = cursor.map { (key: $0.key, id: descending ? Int64.max : Int64.min) }
        let chunk = 1_024
        while walk.state == .walking {
            var rows = 0
            try storage.streamIndex(fieldID: secondField, descending: descending, afterKey: position?.key, afterID: position?.id,
                                    count: chunk) { id, key in
                rows += 1
                position = (key, id)
                return try walk.take(id: id, key: key, load: load)
            }
            // The index ran out: the group's records lacking the second field follow, which
            // only reading the group finds.
            if walk.state == .walking, rows < chunk {
                try walk.finishRun(load: load)
                break
            }
        }
        return walk.state == .full ? walk.page : nil
    }

    /// The first sort's and the second sort's fields when a page may walk: two sorts, the first
    /// streamed from its index, the second's index ordered as the sort is.
    var walkableFields: (first: Int64, second: Int64)? {
        guard query.sorts.count == 2, plan.driverIsOrdered, case .range(let firstField, _, _, false) = plan.driver,
              let secondField = walkableField(query.sorts[1]) else { return nil }
        return (firstField, secondField)
    }

    /// The first sort value of the driver's first row: the group a first page starts in
    /// (`backwards`: of its last row, the group the answer ends with).
    func firstGroupKey(backwards: Bool = false) throws -> IndexValue? {
        var first: IndexValue?
        try storage.streamRows(of: plan.driver, descending: plan.descending, afterKey: nil, afterID: nil, count: 1, backwards: backwards) { _, key, _ in
            first = key
            return false
        }
        return first
    }

    /// The second sort's field when its index orders as the sort does: a single value of a
    /// type whose index value sorts like the value itself.
    private func walkableField(_ sort: SortTerm) -> Int64? {
        guard sort.distanceFrom == nil, case .custom(let name, _) = sort.key, let field = type.schema.fields[name],
              let fieldID = type.fieldIDs[name], field.isQueryable || field.isSortable, !field.type.isList else { return nil }
        switch field.type.base {
        case .string, .int64, .double, .timestamp, .reference: return fieldID
        default: return nil
        }
    }
}

/// The state of one walk of the second sort's index: the run of rows sharing a value (whose
/// records go in id order, as ties do), the page so far and what the walk may still spend.
struct SecondSortWalk {
    enum State { case walking, full, tooCostly }

    /// A loaded record weighs as much as this many index rows against the budget.
    static let loadCost = 16
    /// Budget per member of the group: reading the group whole costs about one record row
    /// each, several times an index row.
    static let budgetPerMember = 2

    let members: Set<Int64>
    /// The second sort's value and the record id the page follows; nil for a first page.
    let cursor: (key: IndexValue, id: Int64)?
    let limit: Int
    var budget: Int
    private(set) var state = State.walking
    private(set) var page: [(values: [FieldValue?], record: LoadedRecord)] = []
    private var run: [Int64] = []
    private var runKey: IndexValue?

    init(members: Set<Int64>, cursor: (key: IndexValue, id: Int64)?, limit: Int, budget: Int) {
        self.members = members
        self.cursor = cursor
        self.limit = limit
        self.budget = budget
    }

    /// Takes the next index row; false once the walk is over (page full, or too costly). Rows
    /// of records outside the group only spend budget: the group's rows sharing a value follow
    /// one another in the index whatever lies between them.
    mutating func take(id: Int64, key: IndexValue, load: (Int64) throws -> ([FieldValue?], LoadedRecord)?) throws -> Bool {
        budget -= 1
        if members.contains(id) {
            if let current = runKey, !SecondSortWalk.sameKey(key, current) { try finishRun(load: load) }
            guard state == .walking else { return false }
            runKey = key
            run.append(id)
        }
        if budget <= 0 {
            state = .tooCostly
            return false
        }
        return true
    }

    /// Adds the run's records to the page in id order (those at the cursor's value only past
    /// the cursor's id), until the page is full and one more follows.
    mutating func finishRun(load: (Int64) throws -> ([FieldValue?], LoadedRecord)?) throws {
        defer {
            run.removeAll(keepingCapacity: true)
            runKey = nil
        }
        guard let key = runKey else { return }
        run.sort()
        // At the cursor's own value, only the records past the cursor's id.
        let pastID = cursor.flatMap { SecondSortWalk.sameKey(key, $0.key) ? $0.id : nil } ?? .min
        for id in run where id > pastID {
            budget -= SecondSortWalk.loadCost
            guard let (values, record) = try load(id) else { continue }
            if page.count == limit {
                state = .full
                return
            }
            page.append((values, record))
        }
    }

    /// Whether two index values are one: strings by their bytes, as SQLite compares them
    /// (Swift's `==` would take "é" and "e\u{301}" for one).
    static func sameKey(_ a: IndexValue, _ b: IndexValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return UTF8Order.compare(x, y) == 0 }
        return a == b
    }
}
