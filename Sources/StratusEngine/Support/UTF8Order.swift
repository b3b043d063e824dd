import Foundation
import StratusCloud

/// Strings in SQLite's BINARY order, by their UTF-8 bytes, which is also code point order: the
/// order of `field_value`'s text keys and of string sort values.
package enum UTF8Order {
    /// Negative, zero or positive as `a`'s UTF-8 bytes sort before, with or after `b`'s.
    static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in compare(utf8: x, y) } }
    }

    /// ``compare(_:_:)`` of bytes where they lie.
    static func compare(utf8 x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(x.count, y.count)
        if common > 0, let p = x.baseAddress, let q = y.baseAddress {
            let order = memcmp(p, q, common)
            if order != 0 { return Int(order) }
        }
        return x.count - y.count
    }

    /// The first eight UTF-8 bytes of `text`, big-endian, zero-padded: ordered as the bytes are,
    /// so comparing two prefixes settles most comparisons without touching the strings.
    static func prefix(_ text: String) -> UInt64 { prefix(utf8: text.utf8) }

    /// ``prefix(_:)`` of bytes.
    static func prefix<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) -> UInt64 {
        var value: UInt64 = 0
        var count = 0
        for byte in bytes.prefix(8) {
            value = value << 8 | UInt64(byte)
            count += 1
        }
        return count == 8 ? value : value << (8 * (8 - count))
    }

    /// The indices of `texts` (UTF-8 bytes, as ``HeldTexts`` holds them) in SQLite's BINARY
    /// order, `tieBreak` deciding between equal texts. The first eight bytes are compared as one
    /// integer, which settles most comparisons without touching the texts (sorting was a fifth
    /// of a flush before).
    package static func order(of texts: [UnsafeBufferPointer<UInt8>], tieBreak: (Int, Int) -> Bool) -> [Int] {
        var keys = texts.indices.map { (prefix: prefix(utf8: texts[$0]), index: $0) }
        keys.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            let order = compare(utf8: texts[a.index], texts[b.index])
            return order != 0 ? order < 0 : tieBreak(a.index, b.index)
        }
        return keys.map(\.index)
    }

    /// The least string that sorts after every string beginning with `prefix`: its last code
    /// point made the next one (U+10FFFF dropped and the one before it raised instead, the
    /// surrogates stepped over). Nil when no string sorts after them all (an empty prefix, or
    /// one of U+10FFFF alone). In code point order every string in [`prefix`, successor)
    /// begins with `prefix`, so the two bound a BEGINSWITH exactly, whatever follows.
    static func successor(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            guard last.value < 0x10FFFF else { continue }
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            scalars.append(Unicode.Scalar(next)!)
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            return String(text)
        }
        return nil
    }
}
