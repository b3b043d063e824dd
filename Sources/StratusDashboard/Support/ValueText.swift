import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

/// How field values read on screen (one line, for tables and the inspector) and how people
/// type them in the edit form.
enum ValueText {
    // MARK: - Display

    /// One-line text of a value for a table cell or the inspector.
    static func display(_ value: FieldValue?) -> String {
        guard let value else { return "" }
        switch value {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return double(number)
        case .timestamp(let date): return timestamp(date)
        case .bytes(let data): return "\(data.count) bytes"
        case .asset(let asset): return "asset \(asset.fileChecksum.prefix(8))… \(byteCount(asset.size))"
        case .reference(let reference):
            return "→ " + reference.recordName + (reference.action == .deleteSelf ? " (DELETE_SELF)" : "")
        case .location(let location): return "\(coordinate(location.latitude)), \(coordinate(location.longitude))"
        case .list(_, let items): return "[" + items.map { display($0) }.joined(separator: ", ") + "]"
        }
    }

    static func double(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(format: "%.1f", number) }
        return "\(number)"
    }

    static func coordinate(_ value: Double) -> String {
        var text = String(format: "%.5f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func byteCount(_ size: Int64) -> String {
        if size < 1024 { return "\(size) B" }
        if size < 1024 * 1024 { return String(format: "%.1f KB", Double(size) / 1024) }
        return String(format: "%.1f MB", Double(size) / 1_048_576)
    }

    /// `2026-01-01 09:30:00Z`: UTC, to the second, computed without a formatter (tables draw
    /// many dates per frame).
    static func timestamp(_ date: Date) -> String {
        let seconds = Int64(floor(date.timeIntervalSince1970))
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (year, month, day) = civil(fromDays: days)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02dZ", year, month, day, rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// Howard Hinnant's days-to-civil algorithm.
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    // MARK: - Editing

    /// Whether the form can edit a field of this type (bytes and assets are read-only).
    static func isEditable(_ type: FieldType) -> Bool {
        type.base != .bytes && type.base != .asset
    }

    /// The text the edit form starts with for a value.
    static func editable(_ value: FieldValue?) -> String {
        guard let value else { return "" }
        switch value {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return "\(number)"
        case .timestamp(let date): return ISO8601.string(date)
        case .reference(let reference):
            return reference.recordName + (reference.action == .deleteSelf ? " DELETE_SELF" : "")
        case .location(let location): return "\(location.latitude),\(location.longitude)"
        case .list(let base, let items):
            if base == .string || base == .reference {
                return JSONWriter.string(.array(items.map { .string(editable($0)) }))
            }
            return items.map { editable($0) }.joined(separator: ", ")
        case .bytes, .asset: return display(value)
        }
    }

    /// A hint for what to type, shown under the field.
    static func inputHint(_ type: FieldType) -> String {
        if type.isList {
            return type.base == .string || type.base == .reference
                ? "a JSON array such as [\"a\", \"b\"], or a, b" : "values separated by commas"
        }
        switch type.base {
        case .string: return "text"
        case .int64: return "a whole number"
        case .double: return "a number"
        case .timestamp: return "ISO 8601: 2024-05-01 or 2024-05-01T10:00:00Z"
        case .reference: return "a record name in this zone, then DELETE_SELF if wanted"
        case .location: return "latitude,longitude"
        case .bytes, .asset: return "read-only here"
        }
    }

    /// Parses what was typed into a value of `type`; nil text (empty) removes the field.
    static func parse(_ text: String, as type: FieldType) -> Result<FieldValue?, ValueError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty && !(type.base == .string && !type.isList && !text.isEmpty) { return .success(nil) }
        if type.isList {
            return parseList(trimmed, base: type.base).map { Optional($0) }
        }
        if type.base == .string { return .success(.string(text)) }
        return parseScalar(trimmed, base: type.base).map { Optional($0) }
    }

    struct ValueError: Error, Hashable, Sendable {
        var message: String
    }

    /// Parses `LATITUDE,LONGITUDE` (spaces allowed), as a record's location field or a sort's
    /// centre is typed, or says what is wrong with it.
    static func parseLocation(_ text: String) -> Result<Location, ValueError> {
        guard let location = Location(coordinates: text) else {
            return .failure(ValueError(message: "Write LATITUDE,LONGITUDE in degrees, as in 35.68,139.77"))
        }
        guard location.isValid else {
            let shown = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
            return .failure(ValueError(message: "\(shown) is off the Earth: latitude must be within -90…90 and longitude within -180…180"))
        }
        return .success(location)
    }

    static func parseScalar(_ text: String, base: FieldType.BaseType) -> Result<FieldValue, ValueError> {
        switch base {
        case .string:
            return .success(.string(text))
        case .int64:
            guard let number = Int64(text) else { return .failure(ValueError(message: "'\(text)' is not a whole number")) }
            return .success(.int64(number))
        case .double:
            guard let number = Double(text), number.isFinite else { return .failure(ValueError(message: "'\(text)' is not a number")) }
            return .success(.double(number))
        case .timestamp:
            guard let date = ISO8601.parse(text) ?? ValueText.parseDisplayedTimestamp(text) else {
                return .failure(ValueError(message: "'\(text)' is not an ISO 8601 date (2024-05-01T10:00:00Z)"))
            }
            return .success(.timestamp(date))
        case .reference:
            let parts = text.split(separator: " ").map(String.init)
            guard let name = parts.first else { return .failure(ValueError(message: "a reference needs a record name")) }
            var action = Reference.Action.none
            if parts.count > 1 {
                guard parts.count == 2, let parsed = Reference.Action(rawValue: parts[1].uppercased()) else {
                    return .failure(ValueError(message: "after the record name, write DELETE_SELF or NONE"))
                }
                action = parsed
            }
            if let problem = RecordID.problem(withName: name) { return .failure(ValueError(message: problem)) }
            return .success(.reference(Reference(recordName: name, action: action)))
        case .location:
            return parseLocation(text).map { .location($0) }
        case .bytes, .asset:
            return .failure(ValueError(message: "\(base.rawValue) fields are read-only in the dashboard"))
        }
    }

    static func parseList(_ text: String, base: FieldType.BaseType) -> Result<FieldValue, ValueError> {
        var pieces: [String] = []
        if text.hasPrefix("[") {
            guard case .array(let items) = (try? JSONParser.parse(text)) ?? .null else {
                return .failure(ValueError(message: "not a JSON array"))
            }
            for item in items {
                switch item {
                case .string(let value): pieces.append(value)
                case .integer(let value): pieces.append(String(value))
                case .number(let value): pieces.append("\(value)")
                default: return .failure(ValueError(message: "list items must be strings or numbers"))
                }
            }
        } else if !text.isEmpty {
            pieces = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var values: [FieldValue] = []
        for (index, piece) in pieces.enumerated() {
            switch parseScalar(piece, base: base) {
            case .success(let value): values.append(value)
            case .failure(let error): return .failure(ValueError(message: "item \(index + 1): \(error.message)"))
            }
        }
        return .success(.list(base, values))
    }

    /// Accepts the table's own form, `2026-01-01 09:30:00Z`.
    static func parseDisplayedTimestamp(_ text: String) -> Date? {
        ISO8601.parse(text.replacingOccurrences(of: " ", with: "T"))
    }

    // MARK: - Filter literals

    /// A value written as a predicate literal, as the builder puts it in the filter text.
    static func literal(_ text: String, base: FieldType.BaseType) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch base {
        case .string:
            return quoted(text)
        case .int64, .double:
            return trimmed.isEmpty ? "0" : trimmed
        case .timestamp:
            if let date = ISO8601.parse(trimmed) ?? parseDisplayedTimestamp(trimmed) {
                return "CAST(\(seconds(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
            }
            return quoted(trimmed)
        case .reference:
            return "CAST(\(quoted(trimmed)), \"CKReference\")"
        case .location:
            return "CAST(\(quoted(trimmed.replacingOccurrences(of: " ", with: ""))), \"CLLocation\")"
        case .bytes, .asset:
            return quoted(trimmed)
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// `"text"` with `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
