import Foundation
import StratusCloud

extension SubscriptionRow {
    /// What a query subscription's row keeps of its query (nothing for other kinds): the
    /// predicate, its encoded arguments and its options, as every backend writes them.
    package static func queryColumns(of subscription: Subscription) -> (predicate: String?, arguments: Data?, options: Int) {
        guard case .query(_, let format, let values, let options, _) = subscription.kind else { return (nil, nil, 0) }
        return (format, encodeArguments(values), options.rawValue)
    }
}
