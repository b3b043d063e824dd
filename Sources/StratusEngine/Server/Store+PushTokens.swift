import Foundation
import StratusCloud

extension Store {
    /// A new push token for `user` (base64 of 32 random bytes, as APNs tokens look over CKWS);
    /// its outbox starts after the notifications that exist now.
    public func makePushToken(container: String, user: String, apnsEnvironment: String) throws -> PushToken {
        let token = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        return try write { db in
            try db.server.insertPushToken(token, container: container, user: user, apnsEnvironment: apnsEnvironment,
                                          createdAt: Int64(Date().timeIntervalSince1970 * 1000))
        }
    }

    /// Registers a token for its user's notifications; false when the token is unknown or
    /// another user's.
    public func registerPushToken(_ token: String, user: String) throws -> Bool {
        try write { db in try db.server.registerPushToken(token, user: user) }
    }

    public func pushToken(_ token: String) throws -> PushToken? {
        try read { db in try db.server.pushToken(token) }
    }

    /// Records that a token's outbox was read up to `sequence`.
    public func markPushDelivered(_ token: String, upTo sequence: Int64) throws {
        try write { db in try db.server.markPushDelivered(token, upTo: sequence) }
    }
}
