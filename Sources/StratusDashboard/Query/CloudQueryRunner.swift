import StratusEngine
import StratusModel
import StratusPredicates
import StratusCloud
import StratusCKWS

/// The dashboard's ``QueryRunner`` over a container's query calls
/// (`records(matching:inZoneWith:desiredKeys:resultsLimit:)`, `records(continuingMatchFrom:)`,
/// `analyze`), acting as the service's acting user.
struct CloudQueryRunner: QueryRunner {
    let cloud: any CloudService

    init(cloud: any CloudService) {
        self.cloud = cloud
    }

    private func database(_ scope: DatabaseScope) -> any CloudDatabaseService {
        cloud.database(scope)
    }

    func run(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryResultsPage {
        try database(scope).records(
            matching: try request.engineQuery(), inZoneWith: zone, desiredKeys: request.desiredKeys, resultsLimit: request.resultsLimit)
    }

    func next(cursor: String, request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryResultsPage {
        try database(scope).records(continuingMatchFrom: cursor, desiredKeys: request.desiredKeys, resultsLimit: request.resultsLimit)
    }

    func last(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> [Record] {
        try database(scope).lastRecords(matching: try request.engineQuery(), inZoneWith: zone, desiredKeys: request.desiredKeys,
                                        resultsLimit: request.resultsLimit)
    }

    func count(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> Int? {
        // The dashboard's own aid, beside the walk that counts too: a fault armed for the
        // dashboard meets the walk, not this.
        try database(scope).withoutFaults.indexedCount(matching: try request.engineQuery(), inZoneWith: zone)
    }

    func check(filter: String, arguments: [String], recordType: String, learnedTypes: [String: FieldType]) -> FilterCheck {
        let parsed: [PredicateArgument]
        do {
            parsed = try arguments.map { text throws(PredicateArgumentError) in try PredicateArgument(parsing: text) }
        } catch {
            return .invalid(error.message, offset: nil, length: 0)
        }
        let query = Query(recordType: recordType, predicateFormat: filter, arguments: parsed)
        let analysis: PredicateAnalysis
        if learnedTypes.isEmpty {
            do {
                analysis = try database(.private).analyze(query)
            } catch {
                return .invalid("\(error)", offset: nil, length: 0)
            }
        } else {
            // A remote has no schema to check against: the types its records showed stand in.
            analysis = PredicateCompiler.analyze(format: filter, arguments: parsed, recordType: recordType, learnedTypes: learnedTypes)
        }
        guard let compiled = analysis.query else {
            let problems = analysis.diagnostics.map {
                FilterProblem(message: $0.message, offset: $0.range?.offset, length: $0.range?.length ?? 0)
            }
            return FilterCheck(isValid: false, problems: problems.isEmpty
                ? [FilterProblem(message: "CloudKit can't run this predicate.", offset: nil, length: 0)] : problems)
        }
        let web = QueryJSON.encode(recordType: recordType, filter: compiled.filter, sorts: compiled.sorts).map { JSONWriter.string($0) }
        return .valid(canonical: analysis.boundCanonical ?? analysis.canonical ?? filter, indexes: Self.indexes(compiled.filter), ckws: web)
    }

    /// `field (INDEX)` for each index the filter's terms need.
    static func indexes(_ filter: QueryFilter) -> [String] {
        var uses: [String] = []
        func add(_ key: FieldKey, _ index: String) {
            let name: String
            switch key {
            case .custom(let field, _): name = field
            case .system(let field): name = field.predicateKey
            }
            let entry = "\(name) (\(index))"
            if !uses.contains(entry) { uses.append(entry) }
        }
        for term in filter.terms {
            switch term {
            case .compare(let key, let op, _): add(key, op == .equal || op == .notEqual ? "QUERYABLE" : "SORTABLE")
            case .oneOf(let key, _, _), .listContains(let key, _, _), .listContainsAny(let key, _, _): add(key, "QUERYABLE")
            case .beginsWith(let key, _, _), .between(let key, _, _): add(key, "SORTABLE")
            case .withinDistance(let key, _, _, _): add(key, "QUERYABLE")
            case .tokens(_, _, let fields):
                let entry = (fields.isEmpty ? "text" : fields.joined(separator: ", ")) + " (SEARCHABLE)"
                if !uses.contains(entry) { uses.append(entry) }
            default: break
            }
        }
        return uses
    }
}
