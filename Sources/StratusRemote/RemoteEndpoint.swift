import Foundation

/// Where a remote container is reached: the base URL (Apple's, or a `stratus serve`), the
/// container and its environment. `/database/1/CONTAINER/ENVIRONMENT/DATABASE/OPERATION`
/// paths are made from it.
public struct RemoteEndpoint: Sendable, Hashable {
    /// Apple's CloudKit Web Services.
    public static let appleURL = "https://api.apple-cloudkit.com"

    public var url: String
    public var container: String
    public var environment: String

    public init(url: String = RemoteEndpoint.appleURL, container: String, environment: String) {
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.container = container
        self.environment = environment
    }

    /// The path of an operation, which a server-to-server signature signs.
    public func path(database: String?, operation: String) -> String {
        "/database/1/\(container)/\(environment)" + (database.map { "/\($0)" } ?? "") + "/\(operation)"
    }
}
