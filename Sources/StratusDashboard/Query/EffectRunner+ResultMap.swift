import StratusCloud

extension EffectRunner {
    /// Walks the result after its first page (from `cursor`), in pages of the engine's largest
    /// size and without fields, posting the count as it grows and, at the end, each page's
    /// cursor and size (the first page's are the Query tab's own).
    func mapResult(job: Int, _ request: QueryRequest, after cursor: String, firstPageCount: Int, zone: ZoneID, scope: DatabaseScope,
                   post: @Sendable (DashboardMessage) -> Void) {
        var walking = request
        walking.desiredKeys = []
        walking.resultsLimit = CloudKitLimits.maximumQueryLimit
        let result = capture { () throws -> [ResultPage]? in
            var map = [ResultPage(cursor: nil, count: firstPageCount)]
            var counted = firstPageCount
            let finished = try walkResult(job: job, walking, from: cursor, zone: zone, scope: scope) { page, readFrom in
                // A last page can be empty (the page before was full to the end): not a page.
                if page.records.isEmpty && page.cursor == nil { return false }
                map.append(ResultPage(cursor: readFrom, count: page.records.count))
                counted += page.records.count
                if map.count % 10 == 0 { post(.query(.mapping(job: job, countedSoFar: counted))) }
                return true
            }
            return finished ? map : nil
        }
        switch result {
        case .success(let map?): post(.query(.mapped(job: job, .success(map))))
        case .success(nil): break
        case .failure(let error): post(.query(.mapped(job: job, .failure(error))))
        }
    }

    /// The result's size from the indexes, when they can tell: posted long before the walk
    /// ends on a large result. Nothing is posted when only the walk can count.
    func countFromIndex(job: Int, _ request: QueryRequest, zone: ZoneID, scope: DatabaseScope, post: @Sendable (DashboardMessage) -> Void) {
        if case .success(let count?) = capture({ try services.queryRunner.count(request, zone: zone, scope: scope) }), !isCancelled(job) {
            post(.query(.indexCounted(job: job, count: count)))
        }
    }
}
