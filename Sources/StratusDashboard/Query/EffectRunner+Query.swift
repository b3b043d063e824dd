import Foundation
import StratusCloud
import StratusModel

/// The Query tab's effects: record counts, pages, the tail, and the work over the whole result.
extension EffectRunner {
    /// Runs the query and reads its pages, its end and its whole result.
    func executeQuery(_ effect: QueryEffect, started: ContinuousClock.Instant, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .checkFilter(let generation, let filter, let arguments, let recordType, let learnedTypes):
            let check = filter.trimmingCharacters(in: .whitespaces).isEmpty
                ? FilterCheck.valid(canonical: "TRUEPREDICATE")
                : services.queryRunner.check(filter: filter, arguments: arguments, recordType: recordType, learnedTypes: learnedTypes)
            post(.query(.filterChecked(generation: generation, check)))

        case .recordCounts(let job, let zone, let scope):
            post(.query(.recordCounts(job: job, capture { try database(scope).recordCountsByType(inZoneWith: zone) })))

        case .typeCounts(let zone, let scope):
            post(.query(.typeCounts(zone: zone, scope: scope, capture { try database(scope).recordCountsByType(inZoneWith: zone) })))

        case .run(let job, let request, let zone, let scope):
            let result = capture { try services.queryRunner.run(request, zone: zone, scope: scope) }
            guard !isCancelled(job) else { return }
            post(.query(.page(job: job, result, page: nil, milliseconds: EffectRunner.milliseconds(since: started))))

        case .loadTail(let job, let request, let zone, let scope):
            let result = capture { try services.queryRunner.last(request, zone: zone, scope: scope) }
            guard !isCancelled(job) else { return }
            post(.query(.tail(job: job, result)))

        case .page(let job, let page, let cursor, let request, let zone, let scope):
            let result = capture {
                if let cursor { return try services.queryRunner.next(cursor: cursor, request: request, zone: zone, scope: scope) }
                return try services.queryRunner.run(request, zone: zone, scope: scope)
            }
            guard !isCancelled(job) else { return }
            post(.query(.page(job: job, result, page: page, milliseconds: EffectRunner.milliseconds(since: started))))

        case .mapResult(let job, let request, let cursor, let firstPageCount, let zone, let scope):
            mapResult(job: job, request, after: cursor, firstPageCount: firstPageCount, zone: zone, scope: scope, post: post)

        case .countFromIndex(let job, let request, let zone, let scope):
            countFromIndex(job: job, request, zone: zone, scope: scope, post: post)

        case .countMatches(let job, let request, let zone, let scope):
            countMatches(job: job, request, zone: zone, scope: scope, post: post)

        case .bulkDelete(let job, let request, let zone, let scope):
            bulkDelete(job: job, request, zone: zone, scope: scope, post: post)

        case .histogram(let job, let request, let field, let zone, let scope):
            loadHistogram(job: job, request, field: field, zone: zone, scope: scope, post: post)
        }
    }
}
