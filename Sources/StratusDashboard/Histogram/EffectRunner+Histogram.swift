import StratusModel
import StratusCloud

extension EffectRunner {
    /// Reads one field over the result, a page of 1,000 at a time, up to the sample limit.
    func loadHistogram(job: Int, _ request: QueryRequest, field: String, zone: ZoneID, scope: DatabaseScope,
                       post: @Sendable (DashboardMessage) -> Void) {
        var reading = request
        reading.desiredKeys = [field]
        reading.resultsLimit = CloudKitLimits.maximumQueryLimit
        let result = capture { () throws -> ValueHistogram? in
            var values: [FieldValue?] = []
            var more = false
            let finished = try walkResult(job: job, reading, zone: zone, scope: scope) { page, _ in
                values += page.records.map { $0[field] }
                more = page.cursor != nil
                return values.count < ValueHistogram.sampleLimit
            }
            guard finished else { return nil }
            let sampled = values.count > ValueHistogram.sampleLimit || (values.count == ValueHistogram.sampleLimit && more)
            return ValueHistogram(field: field, values: Array(values.prefix(ValueHistogram.sampleLimit)), sampled: sampled)
        }
        switch result {
        case .success(let histogram?): post(.query(.histogram(job: job, .success(histogram))))
        case .success(nil): break
        case .failure(let error): post(.query(.histogram(job: job, .failure(error))))
        }
    }
}
