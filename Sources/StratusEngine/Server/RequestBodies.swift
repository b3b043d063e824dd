/// What a request sent and what the server answered, as text with credentials masked: the
/// Logs tab shows them for the newest requests, to see exactly what a client sent.
public struct RequestBodies: Sendable, Hashable {
    public var request: String
    public var response: String

    public init(request: String, response: String) {
        self.request = request
        self.response = response
    }
}
