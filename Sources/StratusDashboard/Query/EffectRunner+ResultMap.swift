import StratusEngine

extension EffectRunner {
    /// Walks the result after its first page (from `cursor`), in pages of the engine's largest
    /// size and without fields, posting the count as it grows and, at the end, each page's
    /// cursor and size (the first page's are the Query tab's own).
    func mapResult(job: Int, _ request: QueryRequest, after cursor: String, firstPageCount: Int, zone: ZoneID, scope: DatabaseScope,
                   post: @Sendable (DashboardMessage) -> Void) {
        var walking = request
        walking.desiredKeys = []
        walking.resultsLimit = CloudDatabase.maximumQueryLimit
        let result = capture { () throws -> [ResultPage]? in
            var map = [ResultPage(cursor: nil, count: firstPageCount)]
            var counted = firstPageCount
            var page = QueryPage(records: [], cursor: cursor)
            while let cursor = page.cursor {
                if isCancelled(job) { return nil }
                if map.count % 10 == 0 { post(.resultMapping(job: job, countedSoFar: counted)) }
                page = try services.queryRunner.next(cursor: cursor, request: walking, zone: zone, scope: scope)
                // A last page can be empty (the page before was full to the end): not a page.
                if page.records.isEmpty && page.cursor == nil { break }
                map.append(ResultPage(cursor: cursor, count: page.records.count))
                counted += page.records.count
            }
            return map
        }
        switch result {
        case .success(let map?): post(.resultMapped(job: job, .success(map)))
        case .success(nil): break
        case .failure(let error): post(.resultMapped(job: job, .failure(error)))
        }
    }
}
