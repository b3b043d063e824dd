import Foundation
import StratusCKWS
import StratusModel

/// How a field's values spread over a query's result: numbers and dates in equal-width bins,
/// anything else as its most frequent values. Lists count each element.
struct ValueHistogram: Sendable, Equatable {
    struct Bar: Sendable, Equatable {
        var label: String
        var count: Int
    }

    var field: String
    var bars: [Bar]
    /// Records read (the whole result, or the first ``sampleLimit`` of it).
    var records: Int
    /// Records without the field.
    var missing: Int
    /// Whether the result holds more records than were read.
    var sampled: Bool

    /// Records read at most: a larger result is sampled (its first records, in its order).
    static let sampleLimit = 20_000
    static let bins = 10
    static let topValues = 12

    /// The histogram of `values` (one entry per record read; nil where the record lacks the field).
    init(field: String, values: [FieldValue?], sampled: Bool) {
        self.field = field
        self.records = values.count
        self.sampled = sampled
        missing = values.filter { $0 == nil }.count
        let elements = values.compactMap { $0 }.flatMap(\.elements)
        let numbers = elements.compactMap { value -> Double? in
            switch value {
            case .int64(let number): return Double(number)
            case .double(let number): return number.isFinite ? number : nil
            case .timestamp(let date): return date.timeIntervalSince1970
            default: return nil
            }
        }
        if !elements.isEmpty, numbers.count == elements.count {
            let isDate = elements.allSatisfy { if case .timestamp = $0 { return true } else { return false } }
            let isInteger = elements.allSatisfy { if case .int64 = $0 { return true } else { return false } }
            bars = ValueHistogram.bins(numbers, isDate: isDate, isInteger: isInteger)
        } else {
            var counts: [String: Int] = [:]
            for element in elements { counts[ValueText.display(element), default: 0] += 1 }
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            bars = sorted.prefix(ValueHistogram.topValues).map { Bar(label: $0.key.isEmpty ? "(empty)" : $0.key, count: $0.value) }
            let rest = sorted.dropFirst(ValueHistogram.topValues).reduce(0) { $0 + $1.value }
            if rest > 0 { bars.append(Bar(label: "(\(sorted.count - ValueHistogram.topValues) other values)", count: rest)) }
        }
    }

    private static func bins(_ numbers: [Double], isDate: Bool, isInteger: Bool) -> [Bar] {
        guard let low = numbers.min(), let high = numbers.max() else { return [] }
        func label(_ value: Double) -> String {
            if isDate { return ISO8601.string(Date(timeIntervalSince1970: value)).prefix(10).description }
            if isInteger { return String(Int64(value.rounded())) }
            return value.formatted(.number.precision(.significantDigits(1...4)))
        }
        if low == high { return [Bar(label: label(low), count: numbers.count)] }
        // Whole numbers spanning fewer values than bins: one bar per value.
        if isInteger, high - low < Double(bins) {
            return (Int64(low)...Int64(high)).map { value in Bar(label: String(value), count: numbers.filter { $0 == Double(value) }.count) }
        }
        let width = (high - low) / Double(bins)
        var counts = [Int](repeating: 0, count: bins)
        for number in numbers { counts[min(bins - 1, Int((number - low) / width))] += 1 }
        return counts.indices.map { index in
            let start = low + Double(index) * width
            let end = index == bins - 1 ? high : start + width
            return Bar(label: "\(label(start)) – \(label(end))", count: counts[index])
        }
    }
}
