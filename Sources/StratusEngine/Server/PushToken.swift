import Foundation
import StratusCloud

/// Push tokens that `tokens/create` hands out and `tokens/register` registers: the server has
/// no push service, so each token is an address of an outbox of the payloads it would have been
/// sent, read by polling its web courier URL.
public struct PushToken: Sendable, Hashable {
    public var token: String
    public var container: String
    public var user: String
    /// `development` or `production`, as the client asked.
    public var apnsEnvironment: String
    public var isRegistered: Bool
    /// The notification order position (`CloudNotification.sequence`) delivered so far.
    public var deliveredSequence: Int64
    /// The position when the token was made: its outbox holds what came after.
    public var startSequence: Int64

    /// Every stored property: a storage backend makes these from its rows.
    package init(token: String, container: String, user: String, apnsEnvironment: String, isRegistered: Bool, deliveredSequence: Int64, startSequence: Int64) {
        self.token = token
        self.container = container
        self.user = user
        self.apnsEnvironment = apnsEnvironment
        self.isRegistered = isRegistered
        self.deliveredSequence = deliveredSequence
        self.startSequence = startSequence
    }
}
