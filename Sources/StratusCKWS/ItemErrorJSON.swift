import StratusCloud

/// A per-item error, the dictionary a batch answers in place of an item that failed
/// (`records[]`, `zones[]`, `subscriptions[]`): what failed, `serverErrorCode`, `reason`, and
/// `ckErrorCode`, `serverRecord` and `retryAfter` when there are any. The server's answers and
/// the command line's JSON both write it here.
public enum ItemErrorJSON {
    /// The order of the members and the form of `retryAfter`. JSON readers ignore order; the two
    /// layouts keep each front end's output byte for byte as it was before the codec.
    public enum Layout: Sendable {
        /// As iCloud answers (`{"recordName", "reason", "serverErrorCode"}`): the reason first,
        /// `retryAfter` in whole seconds rounded up (a client never retries early), then
        /// `serverRecord`. The server's `records`, `zones` and `subscriptions` answers.
        case reasonFirst
        /// `serverErrorCode` first, then `ckErrorCode`, `reason`, `serverRecord`, and
        /// `retryAfter` in exact seconds. The command line's JSON, and the server's
        /// `records/accept` and asset answers.
        case codeFirst
    }

    /// A CloudKit error of one item. `item` names it (`recordName`, `zoneID`, ...); the
    /// `codeFirst` layout adds CloudKit's name of the code as `ckErrorCode`.
    /// `owner`: a Web Services answer's acting user, as ``RecordJSON/encode(_:owner:)`` takes it.
    public static func encode(_ error: CloudKitError, item: [(String, JSONValue)], layout: Layout, owner: String? = nil) -> JSONValue {
        encode(item: item, serverErrorCode: error.code.serverErrorCode, reason: error.message,
               ckErrorCode: layout == .codeFirst ? error.code.name : nil, serverRecord: error.serverRecord,
               retryAfter: error.retryAfter, layout: layout, owner: owner)
    }

    /// The shape itself, from its parts. The server record is written as exports write records,
    /// or, with an `owner`, as a Web Services answer writes them.
    public static func encode(item: [(String, JSONValue)], serverErrorCode: String, reason: String, ckErrorCode: String? = nil,
                              serverRecord: Record? = nil, retryAfter: Double? = nil, layout: Layout, owner: String? = nil) -> JSONValue {
        var members = item
        switch layout {
        case .reasonFirst:
            members.append(("reason", .string(reason)))
            members.append(("serverErrorCode", .string(serverErrorCode)))
            if let ckErrorCode { members.append(("ckErrorCode", .string(ckErrorCode))) }
            if let retryAfter = wholeSeconds(retryAfter) { members.append(("retryAfter", .integer(Int64(retryAfter)))) }
            if let serverRecord { members.append(("serverRecord", RecordJSON.encode(serverRecord, owner: owner))) }
        case .codeFirst:
            members.append(("serverErrorCode", .string(serverErrorCode)))
            if let ckErrorCode { members.append(("ckErrorCode", .string(ckErrorCode))) }
            members.append(("reason", .string(reason)))
            if let serverRecord { members.append(("serverRecord", RecordJSON.encode(serverRecord))) }
            if let retryAfter { members.append(("retryAfter", .number(retryAfter))) }
        }
        return .object(members)
    }

    /// `retryAfter` in the whole seconds CKWS sends, rounded up so a client never retries early.
    public static func wholeSeconds(_ retryAfter: Double?) -> Int? { retryAfter.map { Int($0.rounded(.up)) } }

    // MARK: - Decoding

    /// The CloudKit error a CKWS error dictionary (a per-item error, or a whole request's) stands
    /// for, nil when `json` is not one: its code from `serverErrorCode`, its message the
    /// server's `reason`, `retryAfter` in seconds, a conflict's `serverRecord` (in `zoneID`
    /// unless it names its own). `reason`: the typed reason the caller knows from context.
    public static func decode(_ json: JSONValue, zoneID: ZoneID = .default, reason: CloudKitError.Reason = .general) -> CloudKitError? {
        guard let code = json["serverErrorCode"]?.stringValue else { return nil }
        let serverRecord = json["serverRecord"].flatMap { try? RecordJSON.decode($0, zoneID: zoneID, restoring: true) }
        return CloudKitError(CloudKitError.Code(serverErrorCode: code), json["reason"]?.stringValue ?? code, reason: reason,
                             serverRecord: serverRecord, retryAfter: json["retryAfter"]?.doubleValue)
    }
}
