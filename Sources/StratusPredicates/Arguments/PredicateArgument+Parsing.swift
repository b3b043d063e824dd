import Foundation
import StratusModel

/// The command line's typed argument syntax: `string:red`, `int:5`, `double:2.5`,
/// `date:2024-05-01T00:00:00Z` (or `date:2024-05-01`), `ref:NAME`, `location:37.33,-122.03`,
/// `list:["red","green"]`, `key:fieldName`.
extension PredicateArgument {
    public static let typeNames = ["string", "int", "double", "date", "ref", "location", "list", "key"]

    /// Reads `TYPE:VALUE`, or a bare value where the specifier it fills says its type, as
    /// CloudKit's own `%d` takes a number: `%d`, `%i`, `%ld`, `%lld`, `%u` an integer, `%f`,
    /// `%g`, `%e` a number, `%K` a field name. `%@` takes any type, so it needs `TYPE:`.
    public init(parsing text: String, filling specifier: String?) throws(PredicateArgumentError) {
        if let specifier, let implied = Self.impliedType(of: specifier), !Self.namesItsType(text) {
            try self.init(parsing: implied + ":" + text)
        } else {
            try self.init(parsing: text)
        }
    }

    /// The argument type a printf conversion implies (`nil` for `%@`, which takes any).
    static func impliedType(of specifier: String) -> String? {
        switch specifier.last {
        case "d", "i", "u": return "int"
        case "f", "F", "e", "E", "g", "G": return "double"
        case "K": return "key"
        default: return nil
        }
    }

    /// Whether `text` starts with one of the type names (or their other spellings) and a colon.
    static func namesItsType(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        return spellings.contains(text[..<colon].lowercased())
    }

    private static let spellings: Set<String> = [
        "string", "str", "int", "int64", "double", "number", "date", "timestamp", "ref", "reference",
        "location", "loc", "list", "array", "key", "field",
    ]

    public init(parsing text: String) throws(PredicateArgumentError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw PredicateArgumentError(
                "argument '\(text)' has no type: write TYPE:VALUE, with TYPE one of \(Self.typeNames.joined(separator: ", "))")
        }
        let type = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...])
        switch type {
        case "string", "str":
            self = .value(.string(value))
        case "int", "int64":
            guard let number = Int64(value.trimmingCharacters(in: .whitespaces)) else {
                throw PredicateArgumentError("int:\(value) is not a 64-bit integer")
            }
            self = .value(.int64(number))
        case "double", "number":
            guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                throw PredicateArgumentError("double:\(value) is not a finite number")
            }
            self = .value(.double(number))
        case "date", "timestamp":
            guard let date = ISODate.parse(value.trimmingCharacters(in: .whitespaces)) else {
                throw PredicateArgumentError(
                    "date:\(value) is not an ISO 8601 date: write 2024-05-01T00:00:00Z, 2024-05-01T09:30:00+02:00 or 2024-05-01")
            }
            self = .value(.timestamp(date))
        case "ref", "reference":
            guard !value.isEmpty else { throw PredicateArgumentError("ref: needs a record name, as in ref:RECORDNAME") }
            self = .value(.reference(Reference(recordName: value)))
        case "location", "loc":
            guard let location = Location(coordinates: value) else {
                throw PredicateArgumentError("location:\(value) is not LATITUDE,LONGITUDE (as in location:37.33,-122.03)")
            }
            guard location.isValid else {
                throw PredicateArgumentError(
                    "location:\(value) is off the Earth: latitude must be within -90...90 and longitude within -180...180")
            }
            self = .value(.location(location))
        case "list", "array":
            self = .value(try JSONListReader.read(value))
        case "key", "field":
            guard !value.isEmpty else { throw PredicateArgumentError("key: needs a field name, as in key:favoriteColors") }
            self = .key(value)
        default:
            throw PredicateArgumentError(
                "unknown argument type '\(type)': expected one of \(Self.typeNames.joined(separator: ", "))")
        }
    }
}

/// Reads the JSON array of a `list:` argument: strings, integers or doubles (integers widen
/// to doubles when mixed with them); one element type per list, as CloudKit lists have.
enum JSONListReader {
    static func read(_ text: String) throws(PredicateArgumentError) -> FieldValue {
        let s = Array(text.unicodeScalars)
        var i = 0
        func fail(_ message: String) -> PredicateArgumentError {
            PredicateArgumentError("list:\(text) is not a JSON array of strings or numbers: \(message) at character \(i)")
        }
        func skipSpace() {
            while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" { i += 1 }
        }
        enum Item { case string(String), int(Int64), double(Double) }
        func readString() throws(PredicateArgumentError) -> String {
            i += 1
            var out = String.UnicodeScalarView()
            while true {
                guard i < s.count else { throw fail("unterminated string") }
                let c = s[i]
                i += 1
                if c == "\"" { return String(out) }
                guard c == "\\" else {
                    out.append(c)
                    continue
                }
                guard i < s.count else { throw fail("unterminated escape") }
                let e = s[i]
                i += 1
                switch e {
                case "\"", "\\", "/": out.append(e)
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "u":
                    func hex4() throws(PredicateArgumentError) -> UInt32 {
                        var value: UInt32 = 0
                        for _ in 0..<4 {
                            guard i < s.count, let d = CharacterClass.hexValue(s[i]) else { throw fail("bad \\u escape") }
                            value = value * 16 + d
                            i += 1
                        }
                        return value
                    }
                    var value = try hex4()
                    if (0xD800...0xDBFF).contains(value), i + 1 < s.count, s[i] == "\\", s[i + 1] == "u" {
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("bad surrogate pair") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw fail("lone surrogate") }
                    out.append(scalar)
                default: throw fail("unknown escape \\\(e)")
                }
            }
        }
        skipSpace()
        guard i < s.count, s[i] == "[" else { throw fail("expected '['") }
        i += 1
        var items: [Item] = []
        skipSpace()
        if i < s.count, s[i] == "]" {
            i += 1
        } else {
            while true {
                skipSpace()
                guard i < s.count else { throw fail("expected a value") }
                if s[i] == "\"" {
                    items.append(.string(try readString()))
                } else {
                    var number = ""
                    while i < s.count, CharacterClass.isDigit(s[i]) || "+-.eE".unicodeScalars.contains(s[i]) {
                        number.unicodeScalars.append(s[i])
                        i += 1
                    }
                    if let int = Int64(number) {
                        items.append(.int(int))
                    } else if let double = Double(number), double.isFinite, !number.isEmpty {
                        items.append(.double(double))
                    } else {
                        throw fail("expected a string or a number")
                    }
                }
                skipSpace()
                guard i < s.count else { throw fail("expected ',' or ']'") }
                if s[i] == "]" {
                    i += 1
                    break
                }
                guard s[i] == "," else { throw fail("expected ',' or ']'") }
                i += 1
            }
        }
        skipSpace()
        guard i == s.count else { throw fail("unexpected text after the array") }

        var strings: [FieldValue] = [], ints: [FieldValue] = [], doubles: [FieldValue] = []
        var sawDouble = false
        for item in items {
            switch item {
            case .string(let value): strings.append(.string(value))
            case .int(let value):
                ints.append(.int64(value))
                doubles.append(.double(Double(value)))
            case .double(let value):
                sawDouble = true
                doubles.append(.double(value))
            }
        }
        if !strings.isEmpty && strings.count != items.count {
            throw PredicateArgumentError("list:\(text) mixes strings and numbers; a CloudKit list has one element type")
        }
        if !strings.isEmpty || items.isEmpty { return .list(.string, strings) }
        return sawDouble ? .list(.double, doubles) : .list(.int64, ints)
    }
}
