import StratusCKWS

/// An endpoint's answer: the JSON body's bytes, and a line for the request log when the
/// endpoint has one (what `records/modify` saved and deleted), made from the values it
/// answered with.
///
/// Bytes, not a tree: the endpoints that answer with records write them straight into bytes
/// (``RecordsAnswerWriter``), and the log keeps the same bytes for its newest requests.
struct CKWSAnswer: Sendable {
    var body: [UInt8]
    var logDetail: String?

    init(_ body: JSONValue, logDetail: String? = nil) {
        self.init(bytes: JSONWriter.bytes(body), logDetail: logDetail)
    }

    init(bytes: [UInt8], logDetail: String? = nil) {
        self.body = bytes
        self.logDetail = logDetail
    }
}
