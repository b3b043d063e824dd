import Foundation
import StratusModel
import StratusCloud

/// Parses JSON text into `JSONValue`, reporting the line and column of the first problem.
public struct JSONParser {
    /// Malformed JSON: what was wrong and where (1-based line and column).
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// The text being parsed, valid for the one static call that made this parser. Read through
    /// a pointer and no longer copied into an array first: the parser's own time in a
    /// million-record import fell from 1.55 s to 1.2 s.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 512
    /// Whether `nan`, `inf` and `-inf` read as doubles: only in text this package wrote itself
    /// (see ``parse(written:)``), never in what a client sends.
    private var readsNonFinite = false

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Runs `body` with a parser over `bytes`, copying them only when they are not contiguous.
    private static func withParser<T>(over bytes: some Collection<UInt8>,
                                      _ body: (inout JSONParser) throws(SyntaxError) -> T) throws(SyntaxError) -> T {
        let result: Result<T, SyntaxError>? = bytes.withContiguousStorageIfAvailable { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(SyntaxError) { return .success(try body(&parser)) } catch { return .failure(error) }
        }
        if let result { return try result.get() }
        return try withParser(over: Array(bytes), body)
    }

    /// Parses one JSON document.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try withParser(over: text.utf8) { (parser: inout JSONParser) throws(SyntaxError) in try parser.document() }
    }

    /// Parses one JSON document from UTF-8 bytes (a line of a file), without making a String of
    /// it first; strings in it are decoded as `String(decoding:as:)` decodes, repairing bad UTF-8.
    public static func parse(utf8 bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONValue {
        try withParser(over: bytes) { (parser: inout JSONParser) throws(SyntaxError) in try parser.document() }
    }

    /// Reads back what ``JSONBytes`` wrote, for the callers that want a record as a tree: the
    /// same document, with a double that is not finite as the writer spells it.
    package static func parse(written bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        try withParser(over: bytes) { (parser: inout JSONParser) throws(SyntaxError) in
            parser.readsNonFinite = true
            return try parser.document()
        }
    }

    /// Parses one JSON document from bytes that must be UTF-8: a byte sequence that is not is
    /// an error naming its line and column, not repaired (a web request's body, where iCloud
    /// refuses it and storing U+FFFD would lose what the client meant).
    public static func parse(strictUTF8 bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONValue {
        try withParser(over: bytes) { (parser: inout JSONParser) throws(SyntaxError) in
            if let offset = parser.firstInvalidUTF8Offset() {
                parser.position = offset
                throw parser.failure("invalid UTF-8 (byte 0x\(String(parser.bytes[offset], radix: 16, uppercase: true))); send the body as UTF-8")
            }
            return try parser.document()
        }
    }

    /// Where the bytes first stop being UTF-8, or nil when they all are.
    private func firstInvalidUTF8Offset() -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Parses a stream of documents: one document, or several separated by white space (JSON lines).
    public static func parseSequence(_ text: String) throws(SyntaxError) -> [JSONValue] {
        try withParser(over: text.utf8) { (parser: inout JSONParser) throws(SyntaxError) in
            var values: [JSONValue] = []
            parser.skipSpace()
            while parser.position < parser.bytes.count {
                values.append(try parser.value())
                parser.skipSpace()
            }
            return values
        }
    }

    private mutating func document() throws(SyntaxError) -> JSONValue {
        skipSpace()
        let result = try value()
        skipSpace()
        if position < bytes.count { throw failure("unexpected text after the JSON value") }
        return result
    }

    private func failure(_ message: String) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SyntaxError(message: message, line: line, column: column)
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value() throws(SyntaxError) -> JSONValue {
        guard position < bytes.count else { throw failure("expected a value, found the end of the input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n") where readsNonFinite && bytes[position...].starts(with: "nan".utf8): return try literal("nan", .number(.nan))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "i") where readsNonFinite: return try literal("inf", .number(.infinity))
        case UInt8(ascii: "-") where readsNonFinite && bytes[position...].starts(with: "-inf".utf8): return try literal("-inf", .number(-.infinity))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            throw failure("expected a value, found '\(String(decoding: [bytes[position]], as: UTF8.self))'")
        }
    }

    private mutating func literal(_ word: String, _ result: JSONValue) throws(SyntaxError) -> JSONValue {
        let utf8 = word.utf8
        guard position + utf8.count <= bytes.count, bytes[position..<position + utf8.count].elementsEqual(utf8) else {
            throw failure("expected '\(word)'")
        }
        position += utf8.count
        return result
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var members: [(String, JSONValue)] = []
        // Room for a CKWS field's value, type and a little more without growing twice.
        members.reserveCapacity(4)
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let key = try string()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure("expected ':' after member name \"\(key)\"") }
            position += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            guard position < bytes.count else { throw failure("expected ',' or '}', found the end of the input") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
            throw failure("expected ',' or '}' in an object")
        }
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        position += 1
        var items: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard position < bytes.count else { throw failure("expected ',' or ']', found the end of the input") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            throw failure("expected ',' or ']' in an array")
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        position += 1
        // Fast path: a string without escapes is its bytes.
        let end = JSONParser.plainRunEnd(bytes, from: position)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            // Up to fifteen bytes, a string is kept inline, with nothing allocated: making it
            // costs less than looking it up among the known words.
            let text = (end - position > 15 ? JSONParser.knownWord(bytes, position..<end).map(JSONParser.knownText) : nil)
                ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
            position = end + 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        var start = position
        func flush(_ parser: JSONParser) {
            scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.position]), as: UTF8.self).unicodeScalars)
        }
        while true {
            guard position < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(self)
                position += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure("control character in a string; escape it") }
            if byte != UInt8(ascii: "\\") { position += 1; continue }
            flush(self)
            position += 1
            guard position < bytes.count else { throw failure("unterminated escape") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw failure("unpaired surrogate in \\u escape")
                    }
                    position += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
                scalars.append(scalar)
            default:
                throw failure("unknown escape '\\\(String(decoding: [escape], as: UTF8.self))'")
            }
            start = position
        }
    }

    /// Where the run of bytes from `start` that a string holds as they are ends: at the first
    /// double quote, backslash or control character, or at the end of `bytes`. Eight bytes are
    /// looked at together: a record file's strings are mostly longer than that, and scanning
    /// them byte by byte was the largest part of reading one.
    static func plainRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            while end + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self))
                let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
                // A byte's high bit is set where it is zero (or below 0x20), the classic bit trick:
                // exact for the first such byte, which is all that is read.
                let stops = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word) & highs
                if stops != 0 { return end + stops.trailingZeroBitCount / 8 }
                end += 8
            }
        }
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        return end
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count, let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 4]), as: UTF8.self), radix: 16) else {
            throw failure("expected four hex digits after \\u")
        }
        position += 4
        return code
    }

    private mutating func number() throws(SyntaxError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.position
            while parser.position < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.position]) { parser.position += 1 }
            return parser.position - from
        }
        guard digits(&self) > 0 else { throw failure("expected digits in a number") }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            isInteger = false
            guard digits(&self) > 0 else { throw failure("expected digits after the decimal point") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            isInteger = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw failure("expected digits in the exponent") }
        }
        // Up to 18 digits cannot overflow: accumulated here, without making a string first.
        let negative = bytes[start] == UInt8(ascii: "-")
        if isInteger, position - start - (negative ? 1 : 0) <= 18 {
            var magnitude: Int64 = 0
            for byte in bytes[(negative ? start + 1 : start)..<position] { magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0")) }
            return .integer(negative ? -magnitude : magnitude)
        }
        if !isInteger, let exact = JSONParser.exactDouble(UnsafeBufferPointer(rebasing: bytes[start..<position])) { return .number(exact) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        // Past ±1.8e308 a double is infinite, which JSON cannot write back: refuse it here.
        guard let double = Double(text), double.isFinite else {
            position = start
            throw failure("number \(text.prefix(40)) is out of range (a DOUBLE holds up to ±1.8e308)")
        }
        return .number(double)
    }
}

extension JSONParser {
    /// The double a number's text (already checked against JSON's grammar) spells, when it
    /// can be had exactly without `strtod`: its digits make an integer below 2^53 and its
    /// power of ten is at most 22 either way, so both are exact doubles and the one
    /// multiplication or division between them rounds correctly, giving `strtod`'s own result
    /// (Clinger's fast path). Nil otherwise. Coordinates and ratings are most of an import's
    /// decimals, and `Double(String)` took a thousand instructions for each.
    static func exactDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: UInt64 = 0, count = 0, power = 0
        var fraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                fraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                // Leading zeros add nothing; any nineteenth digit could overflow.
                if digits != 0 || byte != UInt8(ascii: "0") { count += 1 }
                guard count <= 18 else { return nil }
                digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
                if fraction { power -= 1 }
            }
            index += 1
        }
        if index < text.count {
            index += 1
            var exponentNegative = false
            if text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            while index < text.count {
                exponent = exponent * 10 + Int(text[index] - UInt8(ascii: "0"))
                guard exponent <= 400 else { return nil }
                index += 1
            }
            power += exponentNegative ? -exponent : exponent
        }
        guard digits < 1 << 53, (-22...22).contains(power) else { return nil }
        let scale = exactPowersOfTen[abs(power)]
        let magnitude = power < 0 ? Double(digits) / scale : Double(digits) * scale
        return negative ? -magnitude : magnitude
    }

    /// 10^0 through 10^22, every one exact as a double (so each product by ten is too).
    private static let exactPowersOfTen: [Double] = (1...22).reduce(into: [1]) { powers, _ in powers.append(powers.last! * 10) }
}

// MARK: - Reading member by member

extension JSONParser {
    /// Runs `body` over `bytes` as a reader that takes the document a piece at a time (with
    /// ``take(_:)``, ``readString()``, ``readValue()``), for a caller that knows the shape it
    /// expects and builds its own values without a tree of ``JSONValue``s in between. Nil when
    /// `body` returns nil, the JSON is malformed, or text follows the document: the caller then
    /// reads the bytes through ``parse(utf8:)``, which says what is wrong and where.
    static func read<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONParser) throws(SyntaxError) -> T?) -> T? {
        var parser = JSONParser(bytes: bytes)
        guard let result = try? body(&parser) else { return nil }
        parser.skipSpace()
        return parser.position == bytes.count ? result : nil
    }

    /// Takes `byte` if it comes next, after any white space.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Takes `opening` (`{` or `[`) if it comes next, as one level deeper. A reading member by
    /// member counts its levels as the tree does, so a value nested too deep inside a record is
    /// refused by both readings, not only by the tree.
    mutating func open(_ opening: UInt8) throws(SyntaxError) -> Bool {
        guard take(opening) else { return false }
        try enter()
        return true
    }

    /// Takes `closing` (`}` or `]`) if it comes next, ending the level ``open(_:)`` began.
    mutating func close(_ closing: UInt8) -> Bool {
        guard take(closing) else { return false }
        depth -= 1
        return true
    }

    /// Where the parser is (and how deep), to come back to (``rewind(to:)``) when a reading
    /// member by member gives up part way and the value is read as a tree instead.
    struct Mark {
        fileprivate var position: Int
        fileprivate var depth: Int
    }

    var mark: Mark { Mark(position: position, depth: depth) }

    mutating func rewind(to mark: Mark) {
        position = mark.position
        depth = mark.depth
    }

    /// The byte that comes next, after any white space, not taken.
    mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// The string that comes next, after any white space; nil (nothing taken) when something
    /// else comes.
    mutating func readString() throws(SyntaxError) -> String? {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        return try string()
    }

    /// The number of the known word that comes next, after any white space, taken; nil when
    /// something else comes (a string with an escape, another string, another value), and the
    /// caller then gives up on the document, which the tree reads again.
    mutating func readKnownWord() -> Int? {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        let end = JSONParser.plainRunEnd(bytes, from: position + 1)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), let number = JSONParser.knownWord(bytes, position + 1..<end) else { return nil }
        position = end + 1
        return number
    }

    /// The value that comes next, after any white space, as a tree.
    mutating func readValue() throws(SyntaxError) -> JSONValue {
        skipSpace()
        return try value()
    }
}
