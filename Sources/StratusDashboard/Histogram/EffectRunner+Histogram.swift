import StratusEngine
import StratusModel

extension EffectRunner {
    /// Reads one field over the result, a page of 1,000 at a time, up to the sample limit.
    func loadHistogram(job: Int, _ request: QueryRequest, field: String, zone: ZoneID, scope: DatabaseScope,
                       post: @Sendable (DashboardMessage) -> Void) {
        var reading = request
        reading.desiredKeys = [field]
        reading.resultsLimit = CloudDatabase.maximumQueryLimit
        let result = capture { () throws -> ValueHistogram? in
            var values: [FieldValue?] = []
            var page = try services.queryRunner.run(reading, zone: zone, scope: scope)
            while true {
                values += page.records.map { $0[field] }
                guard let cursor = page.cursor, values.count < ValueHistogram.sampleLimit else { break }
                if isCancelled(job) { return nil }
                page = try services.queryRunner.next(cursor: cursor, request: reading, zone: zone, scope: scope)
            }
            let sampled = values.count > ValueHistogram.sampleLimit || (values.count == ValueHistogram.sampleLimit && page.cursor != nil)
            return ValueHistogram(field: field, values: Array(values.prefix(ValueHistogram.sampleLimit)), sampled: sampled)
        }
        switch result {
        case .success(let histogram?): post(.histogramLoaded(job: job, .success(histogram)))
        case .success(nil): break
        case .failure(let error): post(.histogramLoaded(job: job, .failure(error)))
        }
    }
}
