import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine
import StratusModel

/// A remote container (iCloud, or another `stratus serve`) as a ``CloudService``: what a front
/// end does on a local store, done through CloudKit Web Services as the signed-in user (or the
/// server-to-server key's, in the public database).
///
/// Calls block the calling thread until the server answers (the protocol is synchronous); call
/// them from a thread of one's own (the command line's, a dashboard's effect thread), never from
/// an event loop (refused) nor from Swift concurrency's few shared threads, which an HTTP server
/// in the same process may need to answer.
public struct RemoteCloudService: CloudService {
    public let client: CKWSClient
    /// Who acts: always the signed-in user (CKWS has no acting as someone else).
    public let acting = ActingUser()
    private let markers = QueryMarkers()

    public init(client: CKWSClient) {
        self.client = client
    }

    public func database(_ scope: DatabaseScope) -> any CloudDatabaseService {
        RemoteDatabase(scope: scope, client: client, markers: markers)
    }

    public func users() throws -> [StoreUser] {
        throw RemoteDatabase.unavailable("listing a container's users")
    }

    public func recordTypes() throws -> [RecordTypeSchema] {
        throw RemoteDatabase.unavailable("reading the schema (export it with `cktool export-schema`)")
    }

    public func environment() throws -> StoreEnvironment {
        StoreEnvironment(rawValue: client.endpoint.environment) ?? .development
    }

    public func exportSchema() throws -> SchemaDocument {
        throw RemoteDatabase.unavailable("reading the schema (export it with `cktool export-schema`)")
    }

    public func assetData(checksum: String) throws -> Data? {
        throw RemoteDatabase.unavailable("reading an asset by checksum")
    }

    public var localStore: (any LocalStoreFeatures)? { nil }

    /// The signed-in user's record name (`users/current`): who the session acts as.
    public func currentUser() throws -> String {
        let answer = try client.call("public", "users/current")
        guard let name = answer["userRecordName"]?.stringValue else {
            throw CloudKitError(.internalError, "\(client.endpoint.url) answered users/current without userRecordName",
                                reason: .remoteUnreachable(url: client.endpoint.url))
        }
        return name
    }
}
