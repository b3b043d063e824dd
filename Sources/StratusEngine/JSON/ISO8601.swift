import Foundation

/// ISO 8601 dates as people type them: `2024-05-01`, `2024-05-01T10:00:00Z`, with fractions or
/// an offset.
public enum ISO8601 {
    public static func parse(_ text: String) -> Date? {
        let trimmed = shortenFraction(text.trimmingCharacters(in: .whitespaces))
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

    /// ICU's parser (under ISO8601DateFormatter) dies of SIGFPE on a fraction of many digits
    /// (`00:00:00.1230000…0Z`): keep nine at most, more than a TIMESTAMP's milliseconds hold.
    static func shortenFraction(_ text: String) -> String {
        guard let dot = text.firstIndex(of: ".") else { return text }
        let fraction = text[text.index(after: dot)...]
        let digits = fraction.prefix { $0.isASCII && $0.isNumber }
        guard digits.count > 9 else { return text }
        return String(text[...dot]) + digits.prefix(9) + fraction[digits.endIndex...]
    }

    /// `2024-05-01T10:00:00.123Z`.
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
