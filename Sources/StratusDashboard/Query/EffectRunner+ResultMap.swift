import StratusEngine

extension EffectRunner {
    /// Walks the result page by page (the Query tab's page size, no fields), posting the count
    /// as it grows and, at the end, every page's cursor and size.
    func mapResult(job: Int, _ request: QueryRequest, zone: ZoneID, scope: DatabaseScope, post: @Sendable (DashboardMessage) -> Void) {
        var walking = request
        walking.desiredKeys = []
        let result = capture { () throws -> [ResultPage]? in
            var page = try services.queryRunner.run(walking, zone: zone, scope: scope)
            var map = [ResultPage(cursor: nil, count: page.records.count)]
            var counted = page.records.count
            while let cursor = page.cursor {
                if isCancelled(job) { return nil }
                if map.count % 50 == 0 { post(.resultMapping(job: job, countedSoFar: counted)) }
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
