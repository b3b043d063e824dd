import Foundation
import Testing
import StratusModel

/// Dates in record JSON, predicate arguments and the dashboard: the shapes people write parse
/// to the right instant, and malformed text is refused without reaching ICU (whose parser
/// dies of SIGFPE on some of it; the fuzzer found these).
@Suite struct ISODateTests {
    @Test func theShapesPeopleWriteParse() throws {
        let expected: [(String, Double)] = [
            ("2024-05-01", 1_714_521_600),
            ("2024-05-01T10:00:00Z", 1_714_557_600),
            ("2024-05-01T10:00Z", 1_714_557_600),
            ("2024-05-01T12:00:00+02:00", 1_714_557_600),
            ("2024-05-01T12:00:00+0200", 1_714_557_600),
            ("2024-05-01T10:00:00.250Z", 1_714_557_600.25),
            ("2024-05-01T10:00:00.2500000000000000000000000000000000000001Z", 1_714_557_600.25),
            ("2024-05-01T12:00:00+02", 1_714_557_600),
            ("2024-05-01T05:00:00-05:00", 1_714_557_600),
            ("2016-12-31T23:59:60Z", 1_483_228_800),
            ("10000-01-01T00:00:00Z", 253_402_300_800),
        ]
        for (text, seconds) in expected {
            let date = try #require(ISODate.parse(text), "\(text)")
            #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_1, "\(text)")
        }
    }

    @Test(arguments: [
        "197.-01-01T00:00:00.09999999999999999999009999999999999999999Z",
        "2024-05-01T1.:00:00.999999999999999999999999239999999999999999Z",
        "1170-01-01T00:00:00.09999999999999999999999999999999900E",
        "2024-099999999999999999999999995-01T10:00:0Z",
        "2024-13-01", "2024-02-30", "2024-04-31T23:59:60Z", "2023-02-29T12:00:60Z", "1234567-01-01", "124-01-01", "2024-05-01T24:00:00Z", "2024-05-01T10:00:00+25:00", "", "2024-05-01T", "20240501",
    ])
    func malformedTextIsRefused(_ text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    /// The dashboard writes dates as `ISO8601DateFormatter` does (the engine's `ISO8601.string`).
    @Test func whatTheExporterWritesReadsBack() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for seconds in [-62_135_596_800.0, 0, 1_714_557_600.123, 253_402_300_800, 9_000_000_000_000] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = formatter.string(from: date)
            let back = try #require(ISODate.parse(text), "\(text)")
            #expect(abs(back.timeIntervalSince1970 - seconds) < 0.001, "\(text)")
        }
    }
}
