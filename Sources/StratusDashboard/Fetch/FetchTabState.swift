import Foundation
import StratusEngine
import StratusModel
import StratusCloud

/// One name asked for and what came back: the record, or the error for that name.
public struct FetchRow: Sendable {
    public var recordName: String
    public var record: Record?
    public var error: CloudKitError?
}

/// The Fetch tab: the names to fetch, the fields asked for, and the rows that came back.
public struct FetchTabState: Sendable {
    public var names: [String] = []
    public var desiredKeys: [String]?
    public var rows: [FetchRow] = []
    public var list = ListCursor()
    public var job: Int?
    public var done = 0
    public var total = 0
    public var lastMilliseconds: Int?

    public init() {}

    /// Splits pasted or typed names on spaces, commas and line breaks.
    public static func parseNames(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" || $0 == ";" || $0 == "\r\n" })
            .map(String.init)
    }
}
