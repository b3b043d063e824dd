/// `CKSubscription.SubscriptionType`, with CloudKit's raw values.
public enum SubscriptionType: Int, Hashable, Sendable, CaseIterable {
    case query = 1
    case recordZone = 2
    case database = 3

    /// The name the command line prints and reads.
    public var name: String {
        switch self {
        case .query: return "query"
        case .recordZone: return "zone"
        case .database: return "database"
        }
    }
}
