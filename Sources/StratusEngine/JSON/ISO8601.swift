import Foundation

/// ISO 8601 dates as people type them: `2024-05-01`, `2024-05-01T10:00:00Z`, with fractions or
/// an offset.
public enum ISO8601 {
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for options in [ISO8601DateFormatter.Options.withInternetDateTime,
                        [.withInternetDateTime, .withFractionalSeconds],
                        [.withFullDate]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            formatter.timeZone = TimeZone(identifier: "UTC")
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// `2024-05-01T10:00:00.123Z`.
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
