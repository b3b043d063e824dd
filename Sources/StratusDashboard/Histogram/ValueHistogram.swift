import Foundation
import StratusCKWS
import StratusModel

/// How a field's values spread over a query's result: numbers and dates in equal-width bins,
/// anything else as its most frequent values. Lists count each element.
struct ValueHistogram: Sendable, Equatable {
    struct Bar: Sendable, Equatable {
        var label: String
        var count: Int
        /// The filter that selects the bar's records (Enter adds it to the query's); nil for a
        /// bar no CloudKit predicate can select (other values, a range over a list's elements).
        var condition: BarCondition? = nil
    }

    var field: String
    var bars: [Bar]
    /// Records read (the whole result, or the first ``sampleLimit`` of it).
    var records: Int
    /// Records without the field.
    var missing: Int
    /// Whether the result holds more records than were read.
    var sampled: Bool
    /// The bar under the cursor.
    var selected = 0

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
        let isList = values.contains { if case .list? = $0 { return true } else { return false } }
        let elements = values.compactMap { $0 }.flatMap(\.elements)
        let numbers = elements.compactMap { value -> Double? in
            switch value {
            case .int64(let number): return Double(number)
            case .double(let number): return number.isFinite ? number : nil
            case .timestamp(let date): return date.timeIntervalSince1970
            default: return nil
            }
        }
        let kind: NumberKind? = elements.allSatisfy { if case .int64 = $0 { return true } else { return false } } ? .integer
            : elements.allSatisfy { if case .timestamp = $0 { return true } else { return false } } ? .date
            : elements.allSatisfy { if case .double = $0 { return true } else { return false } } ? .double : nil
        if !elements.isEmpty, numbers.count == elements.count, let kind {
            bars = ValueHistogram.bins(numbers, kind: kind, field: field, isList: isList)
        } else {
            var counts: [String: Int] = [:]
            var firstValue: [String: FieldValue] = [:]
            for element in elements {
                let text = ValueText.display(element)
                counts[text, default: 0] += 1
                if firstValue[text] == nil { firstValue[text] = element }
            }
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            bars = sorted.prefix(ValueHistogram.topValues).map { text, count in
                Bar(label: text.isEmpty ? "(empty)" : text, count: count,
                    condition: firstValue[text].flatMap { BarCondition.equal(field, to: $0, isList: isList) })
            }
            let rest = sorted.dropFirst(ValueHistogram.topValues).reduce(0) { $0 + $1.value }
            if rest > 0 { bars.append(Bar(label: "(\(sorted.count - ValueHistogram.topValues) other values)", count: rest)) }
        }
    }

    /// How a field's numbers are written in a filter, which decides where a bin's bounds fall.
    enum NumberKind { case integer, double, date }

    /// Equal-width bins, each from its lower bound (included) to the next (excluded; the last
    /// includes the largest value). The bounds are rounded as the field stores its values
    /// (whole numbers, milliseconds), so the filter of a bar selects exactly the values counted in it.
    private static func bins(_ numbers: [Double], kind: NumberKind, field: String, isList: Bool) -> [Bar] {
        guard let low = numbers.min(), let high = numbers.max() else { return [] }
        func label(_ value: Double) -> String {
            switch kind {
            case .date: return ISO8601.string(Date(timeIntervalSince1970: value)).prefix(10).description
            case .integer: return String(Int64(value.rounded()))
            case .double: return value.formatted(.number.precision(.significantDigits(1...4)))
            }
        }
        if low == high {
            return [Bar(label: label(low), count: numbers.count, condition: BarCondition.equal(field, to: kind.value(low), isList: isList))]
        }
        // Whole numbers spanning fewer values than bins: one bar per value.
        if kind == .integer, high - low < Double(bins) {
            return (Int64(low)...Int64(high)).map { value in
                Bar(label: String(value), count: numbers.filter { $0 == Double(value) }.count,
                    condition: BarCondition.equal(field, to: .int64(value), isList: isList))
            }
        }
        let width = (high - low) / Double(bins)
        let bounds = (0...bins).map { index in kind.rounded(index == bins ? high : low + Double(index) * width) }
        var counts = [Int](repeating: 0, count: bins)
        for number in numbers {
            // The last bin whose lower bound the number reaches: the filter's own comparison.
            let index = (bounds.lastIndex { number >= $0 } ?? 0)
            counts[min(bins - 1, index)] += 1
        }
        return counts.indices.map { index in
            let isLast = index == bins - 1
            return Bar(label: "\(label(bounds[index])) – \(label(bounds[index + 1]))", count: counts[index],
                       condition: isList ? nil : BarCondition.range(field, from: kind.value(bounds[index]), to: kind.value(bounds[index + 1]),
                                                                    includingEnd: isLast))
        }
    }
}

extension ValueHistogram.NumberKind {
    /// A bound as the field's values fall: up to the next whole number or millisecond.
    func rounded(_ value: Double) -> Double {
        switch self {
        case .integer: return value.rounded(.up)
        case .date: return (value * 1000).rounded(.up) / 1000
        case .double: return value
        }
    }

    func value(_ number: Double) -> FieldValue {
        switch self {
        case .integer: return .int64(Int64(number))
        case .date: return .timestamp(Date(timeIntervalSince1970: number))
        case .double: return .double(number)
        }
    }
}
