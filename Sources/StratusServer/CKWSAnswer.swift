import StratusCKWS

/// An endpoint's answer: the JSON body, and a line for the request log when the endpoint has
/// one (what `records/modify` saved and deleted), made from the values it answered with.
struct CKWSAnswer: Sendable {
    var body: JSONValue
    var logDetail: String?

    init(_ body: JSONValue, logDetail: String? = nil) {
        self.body = body
        self.logDetail = logDetail
    }
}
