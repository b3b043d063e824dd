import StratusCloud
import StratusModel
import StratusCKWS

/// The alert texts a notification copies from its subscription, kept as a small JSON object.
package enum NotificationDisplay {
    static func encode(alertBody: String?, title: String?, subtitle: String?, category: String?) -> String? {
        let members = [("alertBody", alertBody), ("title", title), ("subtitle", subtitle), ("category", category)]
            .compactMap { name, value in value.map { (name, JSONValue.string($0)) } }
        return members.isEmpty ? nil : JSONWriter.string(.object(members))
    }

    package static func decode(_ text: String?) -> [String: String] {
        guard let text, case .object(let members)? = try? JSONParser.parse(text) else { return [:] }
        var result: [String: String] = [:]
        for (name, value) in members { if case .string(let string) = value { result[name] = string } }
        return result
    }
}
