import Foundation
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// Renders records for people: a header line, then one aligned line per field.
enum RecordPrinter {
    static func describe(_ record: Record) -> String {
        var lines: [String] = []
        var header = "\(record.recordType) \(record.recordName)"
        if let tag = record.recordChangeTag { header += "  tag \(tag)" }
        if let modified = record.modificationDate {
            header += "  modified \(ISO8601.string(modified)) by \(record.lastModifiedUserRecordName ?? "?")"
        }
        lines.append(header)
        let width = record.fields.keys.map(\.count).max() ?? 0
        for key in record.fields.keys.sorted() {
            let value = record.fields[key]!
            let padded = key.padding(toLength: width, withPad: " ", startingAt: 0)
            let type = value.type.description.padding(toLength: 18, withPad: " ", startingAt: 0)
            lines.append("  \(padded)  \(type) \(format(value))")
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ value: FieldValue) -> String {
        switch value {
        case .string(let text): return text.debugDescription
        case .int64(let number): return String(number)
        case .double(let number): return "\(number)"
        case .timestamp(let date): return ISO8601.string(date)
        case .bytes(let data): return "\(data.count) bytes"
        case .asset(let asset): return "asset \(asset.fileChecksum.prefix(12))… (\(asset.size) bytes)"
        case .reference(let reference):
            return "→ \(reference.recordName)" + (reference.action == .deleteSelf ? " (DELETE_SELF)" : "")
        case .location(let location): return String(format: "%.6f, %.6f", location.latitude, location.longitude)
        case .list(_, let items): return "[" + items.map(format).joined(separator: ", ") + "]"
        }
    }
}
