import Foundation

/// ISO 8601 dates as people type them (`2024-05-01`, `2024-05-01T10:00:00Z`, with a fraction
/// or an offset), read by hand.
///
/// Not `ISO8601DateFormatter`: ICU's parser under it dies of SIGFPE on some malformed text (a
/// fraction of many digits, a dot in the year), and record JSON, predicate arguments and the
/// dashboard all parse text users and files provide.
public enum ISODate {
    /// `YYYY-MM-DD` (years of four to six digits, as dates past 9999 are written), optionally
    /// `THH:MM[:SS[.fff]]` and `Z`, `±HH:MM`, `±HHMM` or `±HH` (UTC when absent); nil for
    /// anything else.
    public static func parse(_ text: String) -> Date? {
        let s = Array(text.unicodeScalars)
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= s.count else { return nil }
            var value = 0
            for k in i..<(i + digits) {
                guard isDigit(s[k]) else { return nil }
                value = value * 10 + Int(s[k].value - 0x30)
            }
            i += digits
            return value
        }
        func take(_ c: Unicode.Scalar) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        var yearDigits = 0
        while i + yearDigits < s.count, isDigit(s[i + yearDigits]), yearDigits < 7 { yearDigits += 1 }
        guard (4...6).contains(yearDigits), let year = number(yearDigits), take("-"), let month = number(2), take("-"),
              let day = number(2) else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var fraction = 0.0
        var offsetSeconds = 0
        if i < s.count {
            guard take("T") || take("t") || take(" ") else { return nil }
            guard let hour = number(2), take(":"), let minute = number(2) else { return nil }
            components.hour = hour
            components.minute = minute
            if take(":") {
                guard let second = number(2) else { return nil }
                components.second = second
                if take(".") || take(",") {
                    // Nine digits are more than a TIMESTAMP's milliseconds hold; the rest is skipped.
                    var digits = ""
                    while i < s.count, isDigit(s[i]) {
                        if digits.unicodeScalars.count < 9 { digits.unicodeScalars.append(s[i]) }
                        i += 1
                    }
                    guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
                    fraction = value
                }
            }
            if take("Z") || take("z") {
            } else if i < s.count {
                let sign: Int
                if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
                guard let hours = number(2) else { return nil }
                var minutes = 0
                if i < s.count {
                    _ = take(":")
                    guard let given = number(2) else { return nil }
                    minutes = given
                }
                guard hours <= 23, minutes <= 59 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            }
            guard i == s.count else { return nil }
        }
        guard (1...12).contains(month), (1...31).contains(day), let hour = components.hour, hour <= 23,
              let minute = components.minute, minute <= 59, let second = components.second, second <= 60
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        // A leap second (:60) is the second after :59 of a real day: the day is checked on :59.
        components.second = min(second, 59)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(Double(second - min(second, 59)) + fraction - Double(offsetSeconds))
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
}
