import Foundation
import StratusModel
import StratusPredicates
import StratusCloud
import StratusCKWS

/// A stored subscription with its row id, database and owner; and how its predicate arguments
/// and notification info are encoded for storage.
package struct SubscriptionRow {
    var id: Int64
    var scope: DatabaseScope
    var owner: String
    var subscription: Subscription

    package init(id: Int64, scope: DatabaseScope, owner: String, subscription: Subscription) {
        self.id = id
        self.scope = scope
        self.owner = owner
        self.subscription = subscription
    }

    // MARK: - Encodings

    /// Arguments keep their exact values in the field encoding: `vN` a value, `kN` a `%K` key.
    package static func encodeArguments(_ arguments: [PredicateArgument]) -> Data {
        var fields: [String: FieldValue] = [:]
        for (index, argument) in arguments.enumerated() {
            switch argument {
            case .value(let value): fields["v\(index)"] = value
            case .key(let name): fields["k\(index)"] = .string(name)
            }
        }
        return FieldCoder.encode(fields)
    }

    package static func decodeArguments(_ blob: Data?) throws -> [PredicateArgument] {
        guard let blob, !blob.isEmpty else { return [] }
        let fields = try FieldCoder.decode(blob)
        var arguments: [(Int, PredicateArgument)] = []
        for (key, value) in fields {
            guard let index = Int(key.dropFirst()) else { continue }
            if key.hasPrefix("k"), case .string(let name) = value {
                arguments.append((index, .key(name)))
            } else {
                arguments.append((index, .value(value)))
            }
        }
        return arguments.sorted { $0.0 < $1.0 }.map(\.1)
    }

    package static func encodeInfo(_ info: NotificationInfo) -> String {
        var members: [(String, JSONValue)] = []
        if let keys = info.desiredKeys { members.append(("desiredKeys", .array(keys.map { .string($0) }))) }
        for (name, value) in [("alertBody", info.alertBody), ("title", info.title), ("subtitle", info.subtitle),
                              ("soundName", info.soundName), ("category", info.category), ("alertLocalizationKey", info.alertLocalizationKey),
                              ("alertActionLocalizationKey", info.alertActionLocalizationKey), ("alertLaunchImage", info.alertLaunchImage)] {
            if let value { members.append((name, .string(value))) }
        }
        if let arguments = info.alertLocalizationArgs { members.append(("alertLocalizationArgs", .array(arguments.map { .string($0) }))) }
        members.append(("shouldBadge", .bool(info.shouldBadge)))
        members.append(("shouldSendContentAvailable", .bool(info.shouldSendContentAvailable)))
        return JSONWriter.string(.object(members))
    }

    package static func decodeInfo(_ text: String) -> NotificationInfo? {
        guard case .object(let members)? = try? JSONParser.parse(text) else { return nil }
        var info = NotificationInfo()
        for (name, value) in members {
            switch (name, value) {
            case ("desiredKeys", .array(let keys)):
                info.desiredKeys = keys.compactMap { if case .string(let key) = $0 { return key }; return nil }
            case ("alertBody", .string(let text)): info.alertBody = text
            case ("title", .string(let text)): info.title = text
            case ("subtitle", .string(let text)): info.subtitle = text
            case ("soundName", .string(let text)): info.soundName = text
            case ("category", .string(let text)): info.category = text
            case ("alertLocalizationKey", .string(let text)): info.alertLocalizationKey = text
            case ("alertActionLocalizationKey", .string(let text)): info.alertActionLocalizationKey = text
            case ("alertLaunchImage", .string(let text)): info.alertLaunchImage = text
            case ("alertLocalizationArgs", .array(let items)): info.alertLocalizationArgs = items.compactMap(\.stringValue)
            case ("shouldBadge", .bool(let flag)): info.shouldBadge = flag
            case ("shouldSendContentAvailable", .bool(let flag)): info.shouldSendContentAvailable = flag
            default: break
            }
        }
        return info
    }
}
