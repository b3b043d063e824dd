import StratusCloud

extension EffectRunner {
    /// Reads a query's whole result a page at a time: from its first page, or from `cursor`
    /// on. Each page goes to `visit` with the cursor it was read from (nil for the first),
    /// until `visit` says stop, the result ends, or the job is cancelled. One loop for every
    /// feature that reads a whole result (the count, export, the histogram).
    ///
    /// - Returns: false when the job was cancelled.
    func walkResult(job: Int, _ request: QueryRequest, from cursor: String? = nil, zone: ZoneID, scope: DatabaseScope,
                    visit: (QueryResultsPage, _ readFrom: String?) throws -> Bool) throws -> Bool {
        func read(_ from: String?) throws -> QueryResultsPage {
            try from.map { try services.queryRunner.next(cursor: $0, request: request, zone: zone, scope: scope) }
                ?? services.queryRunner.run(request, zone: zone, scope: scope)
        }
        var readFrom = cursor
        var page = try read(readFrom)
        while true {
            if isCancelled(job) { return false }
            guard try visit(page, readFrom), let after = page.cursor else { return true }
            readFrom = after
            page = try read(after)
        }
    }
}
