/// A CloudKit Web Services request path: `/database/1/{container}/{environment}/{database}/{operation}`,
/// or `/{database|device}/1/{container}/{environment}/tokens/{create|register}`, which name no
/// database.
struct CKWSPath: Sendable, Equatable {
    var container: String
    var environment: String
    /// `public`, `private` or `shared`; nil for the token endpoints.
    var database: String?
    /// `records/query`, `zones/list`, `tokens/create` ...
    var operation: String

    /// Nil when the path is not a CKWS path at all (the caller answers 404).
    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 5, parts[0] == "database" || parts[0] == "device", parts[1] == "1" else { return nil }
        container = parts[2]
        environment = parts[3]
        if parts[4] == "tokens" {
            guard parts.count == 6 else { return nil }
            database = nil
            operation = "tokens/" + parts[5]
        } else {
            guard parts[0] == "database", parts.count >= 7 else { return nil }
            database = parts[4]
            operation = parts[5...].joined(separator: "/")
        }
    }
}
