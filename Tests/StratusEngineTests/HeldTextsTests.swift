@testable import StratusEngine
import StratusModel
@testable import StratusSQLite
import Testing

/// Held text rows keep their bytes and records, and order them as `field_value` does.
@Suite struct HeldTextsTests {
    @Test func keyOrderIsByBytesThenRecord() {
        var generator = SeededGenerator(seed: 11)
        // Shared prefixes longer than the eight bytes compared first, bytes above 0x7F, the
        // empty text, and ties broken by record.
        let pieces = ["", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgh\u{0}", "Z", "é", "e\u{301}", "日本", "😀", "\u{10FFFF}", "ß"]
        var held = HeldTexts()
        var expected: [([UInt8], Int64)] = []
        for index in 0..<2_000 {
            let text = pieces[generator.below(pieces.count)] + pieces[generator.below(pieces.count)]
            let record = Int64(generator.below(50))
            held.append(text, recordID: record)
            expected.append((Array(text.utf8), record))
            #expect(held.text(at: index) == text)
        }
        let order = held.keyOrder()
        #expect(order.map { Array(held.text(at: $0).utf8) } == expected.sorted { a, b in
            a.0 != b.0 ? a.0.lexicographicallyPrecedes(b.0) : a.1 < b.1
        }.map(\.0))
        for (earlier, later) in zip(order, order.dropFirst()) where held.text(at: earlier) == held.text(at: later) {
            #expect(held.recordID(at: earlier) <= held.recordID(at: later))
        }
    }

    @Test func appendingAnotherAndEmptyingKeepRowsApart() {
        var first = HeldTexts()
        first.append("title one", recordID: 1)
        first.append("", recordID: 2)
        var second = HeldTexts()
        second.append("Ünïcödé ✓", recordID: 3)
        first.append(contentsOf: second)
        #expect((0..<first.count).map { first.text(at: $0) } == ["title one", "", "Ünïcödé ✓"])
        #expect((0..<first.count).map { first.recordID(at: $0) } == [1, 2, 3])
        first.removeAll()
        #expect(first.isEmpty)
        first.append("again", recordID: 4)
        #expect(first.text(at: 0) == "again" && first.recordID(at: 0) == 4)
    }
}

/// What the tests read held texts with (the write path reads the bytes where they lie).
extension HeldTexts {
    func text(at index: Int) -> String { withUTF8(at: index) { String(decoding: $0, as: UTF8.self) } }

    mutating func append(contentsOf other: HeldTexts) {
        for index in 0..<other.count { other.withUTF8(at: index) { append(utf8: $0, recordID: other.recordID(at: index)) } }
    }
}
