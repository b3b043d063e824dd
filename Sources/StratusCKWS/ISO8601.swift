import Foundation
import StratusModel
import StratusCloud

/// ISO 8601 dates as people type them: `2024-05-01`, `2024-05-01T10:00:00Z`, with fractions or
/// an offset.
public enum ISO8601 {
    /// The date, or nil when the text is not one of those shapes (see ``ISODate``).
    public static func parse(_ text: String) -> Date? { ISODate.parse(text.trimmingCharacters(in: .whitespaces)) }

    /// `2024-05-01T10:00:00.123Z`.
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
