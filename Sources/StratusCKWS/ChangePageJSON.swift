/// A page of changes and the token to continue from: the page's items, then `syncToken` and
/// `moreComing`. `changes/zone`, `records/changes`, `changes/database` and the command line's
/// `changes` and `token` answer in it.
public enum ChangePageJSON {
    /// `items` are the page's members (`zoneID`, `records`, `zones`); a bare token (the
    /// command line's `token`) has no `moreComing`. `alsoAs` repeats the token under other
    /// names (`zones/changes` answers `metaSyncToken` too).
    public static func encode(_ items: [(String, JSONValue)], syncToken: String, moreComing: Bool?, alsoAs names: [String] = []) -> JSONValue {
        var members = items
        members.append(("syncToken", .string(syncToken)))
        if let moreComing { members.append(("moreComing", .bool(moreComing))) }
        for name in names { members.append((name, .string(syncToken))) }
        return .object(members)
    }
}
