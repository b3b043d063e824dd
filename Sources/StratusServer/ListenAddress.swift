/// Where the server listens, and whether plain HTTP there is safe: on loopback only this
/// machine can listen in; anywhere else, API tokens, web auth tokens and every user's private
/// records would cross the network in clear text.
public enum ListenAddress {
    /// True for an address only this machine reaches (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// What plain HTTP beyond loopback exposes, said where the server refuses or warns.
    public static let plainHTTPDanger = "plain HTTP sends every API token, web auth token and every user's private records "
        + "in clear text to anyone on the network between the clients and this server, who can then read them and act as those users"
}
