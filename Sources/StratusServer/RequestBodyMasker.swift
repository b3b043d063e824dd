import Foundation
import StratusCKWS

/// A request's or a response's body as the Logs tab shows it: indented JSON with every
/// credential masked (push tokens, web auth tokens and sessions, the tickets in upload and
/// courier URLs), cut at ``maximumCharacters``. What it masks never reaches the store.
enum RequestBodyMasker {
    static let mask = "••••"
    static let maximumCharacters = 64 * 1024

    /// Members whose string value is a credential, by lowercased name.
    static let secretMembers: Set<String> = ["apnstoken", "webauthtoken", "ckwebauthtoken", "cksession", "ckapitoken", "apitoken", "sessiontoken"]
    /// Members whose URL ends in a credential (an upload ticket, a push token).
    static let secretURLMembers: Set<String> = ["url", "webcourierurl"]

    /// The text of a request's or a response's body: its JSON indented and masked, or the text
    /// itself when it is not JSON (masked bodies are JSON; other text carries no member names
    /// to mask by).
    static func text(ofBody bytes: some Collection<UInt8>) -> String {
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return "" }
        guard let json = try? JSONParser.parse(utf8: Array(bytes)) else {
            return cut("(not JSON) " + String(decoding: bytes, as: UTF8.self))
        }
        return text(of: json)
    }

    static func text(of json: JSONValue) -> String {
        cut(JSONWriter.string(masked(json, member: nil), pretty: true))
    }

    static func masked(_ json: JSONValue, member: String?) -> JSONValue {
        switch json {
        case .object(let members):
            return .object(members.map { ($0.0, masked($0.1, member: $0.0)) })
        case .array(let items):
            return .array(items.map { masked($0, member: member) })
        case .string(let text):
            let name = member?.lowercased() ?? ""
            if secretMembers.contains(name) { return .string(mask) }
            guard text.contains("://") else { return .string(text) }
            return .string(maskedURL(text, endsInSecret: secretURLMembers.contains(name)))
        default:
            return json
        }
    }

    /// A URL with the values of its token and session parameters masked, and its last path
    /// component too when that is a credential. Plain text work: any string a client sends
    /// passes through here, so nothing in it may fail.
    static func maskedURL(_ text: String, endsInSecret: Bool) -> String {
        let queryStart = text.firstIndex(of: "?") ?? text.endIndex
        var base = String(text[..<queryStart])
        if endsInSecret, let scheme = base.range(of: "://"), let slash = base.lastIndex(of: "/"), slash > scheme.upperBound {
            base = String(base[...slash]) + mask
        }
        guard queryStart < text.endIndex else { return base }
        let items = text[text.index(after: queryStart)...].split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let name = item[..<equals].lowercased()
            return name.contains("token") || name.contains("session") ? String(item[...equals]) + mask : String(item)
        }
        return base + "?" + items.joined(separator: "&")
    }

    static func cut(_ text: String) -> String {
        guard text.count > maximumCharacters else { return text }
        let kept = text.prefix(maximumCharacters)
        return kept + "\n… (\(text.count - maximumCharacters) more characters not kept)"
    }
}
