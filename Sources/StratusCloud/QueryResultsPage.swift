import Foundation

/// One page of query results and the cursor for the next, as `CKQueryOperation` returns them.
public struct QueryResultsPage: Sendable {
    public var records: [Record]
    /// Pass to `records(continuingMatchFrom:)` for the next page; nil when no more match.
    public var cursor: String?

    public init(records: [Record], cursor: String?) {
        self.records = records
        self.cursor = cursor
    }
}
