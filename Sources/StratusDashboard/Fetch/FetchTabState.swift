import Foundation
import StratusModel
import StratusCloud

/// One name asked for and what came back: the record, or the error for that name.
struct FetchRow: Sendable {
    var recordName: String
    var record: Record?
    var error: CloudKitError?
}

/// The Fetch tab: the names to fetch, the fields asked for, and the rows that came back.
struct FetchTabState: Sendable {
    var names: [String] = []
    var desiredKeys: [String]?
    var rows: [FetchRow] = []
    var list = ListCursor()
    var job: Int?
    var done = 0
    var total = 0
    var lastMilliseconds: Int?

    init() {}

    /// Splits pasted or typed names on spaces, commas and line breaks.
    static func parseNames(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" || $0 == ";" || $0 == "\r\n" })
            .map(String.init)
    }

    /// Rows whose record this dashboard deleted say so (the name stays, as a fetch would now
    /// answer it).
    mutating func markDeleted(_ gone: Set<RecordID>) {
        for index in rows.indices where rows[index].record.map({ gone.contains($0.recordID) }) ?? false {
            rows[index].record = nil
            rows[index].error = CloudKitError(.unknownItem, "deleted")
        }
    }
}
