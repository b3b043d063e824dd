import StratusCloud

/// The Fetch tab's work.
enum FetchEffect: Sendable {
    case records(job: Int, names: [String], desiredKeys: [String]?, zone: ZoneID, scope: DatabaseScope)
}
