/// Turns raw input codes into ``Event``s: control bytes into `ctrl` keys, `Esc x` into
/// `alt(x)`, escape sequences ncurses did not recognise into keys, and bracketed paste
/// (`ESC[200~ ... ESC[201~`) into one `paste` event.
///
/// Pure and clock-free: each code comes with the time it was read, so tests can feed
/// timestamps instead of sleeping. A lone Esc is only known to be lone once
/// ``escapeTimeout`` has passed; the reader calls ``flush(at:)`` at ``deadline``.
public struct KeyDecoder: Sendable {
    public typealias Instant = ContinuousClock.Instant

    /// How long after Esc a character still counts as Alt+character (or part of a sequence).
    public var escapeTimeout: Duration
    /// A paste whose end marker never comes is delivered after this much silence.
    public var pasteTimeout: Duration

    private enum State: Sendable {
        case idle
        case escape(since: Instant)
        case csi(parameters: String, since: Instant)
        case ss3(since: Instant)
        case paste(text: String, since: Instant)
    }

    private var state = State.idle
    private static let pasteEnd = "\u{1B}[201~"

    public init(escapeTimeout: Duration = .milliseconds(25), pasteTimeout: Duration = .seconds(1)) {
        self.escapeTimeout = escapeTimeout
        self.pasteTimeout = pasteTimeout
    }

    /// True while input is held back (after Esc, inside a sequence or a paste).
    public var isPending: Bool {
        if case .idle = state { return false }
        return true
    }

    /// When ``flush(at:)`` should be called if no more input arrives; nil when nothing is held.
    public var deadline: Instant? {
        switch state {
        case .idle: return nil
        case .escape(let since), .csi(_, let since), .ss3(let since): return since + escapeTimeout
        case .paste(_, let since): return since + pasteTimeout
        }
    }

    /// Decodes one code read at `now`; returns the events it completes (often none or one).
    public mutating func feed(_ code: InputCode, at now: Instant) -> [Event] {
        var events = flush(at: now)
        switch code {
        case .keyCode(let value):
            events += feedKeyCode(value, at: now)
        case .character(let scalar):
            events += feedCharacter(scalar, at: now)
        }
        return events
    }

    /// Decodes several codes read at the same moment.
    public mutating func feed(_ codes: [InputCode], at now: Instant) -> [Event] {
        codes.flatMap { feed($0, at: now) }
    }

    /// Emits whatever is held back if its time is up at `now`: a lone Esc, a cut-off sequence
    /// (as the Alt keys it spelled), or an unterminated paste.
    public mutating func flush(at now: Instant) -> [Event] {
        guard let deadline, now >= deadline else { return [] }
        let held = state
        state = .idle
        switch held {
        case .idle:
            return []
        case .escape:
            return [.key(.escape)]
        case .csi(let parameters, _):
            return [.key(.alt("["))] + parameters.map { .key(.char($0)) }
        case .ss3:
            return [.key(.alt("O"))]
        case .paste(let text, _):
            return [.paste(KeyDecoder.normalizeLineBreaks(text))]
        }
    }

    // MARK: - Private

    private mutating func feedKeyCode(_ value: Int32, at now: Instant) -> [Event] {
        switch state {
        case .paste(var text, _):
            if value == CursesKey.enter { text.append("\n") }
            state = .paste(text: text, since: now)
            return []
        case .escape, .csi, .ss3:
            // Not a sequence after all: the held Esc stands alone.
            var events = abortSequence()
            if let key = KeyDecoder.key(forCode: value) { events.append(.key(key)) }
            return events
        case .idle:
            guard let key = KeyDecoder.key(forCode: value) else { return [] }
            return [.key(key)]
        }
    }

    private mutating func feedCharacter(_ scalar: Unicode.Scalar, at now: Instant) -> [Event] {
        switch state {
        case .idle:
            if scalar.value == 0x1B {
                state = .escape(since: now)
                return []
            }
            return KeyDecoder.key(forCharacter: scalar).map { [.key($0)] } ?? []

        case .escape:
            switch scalar {
            case "[":
                state = .csi(parameters: "", since: now)
                return []
            case "O":
                state = .ss3(since: now)
                return []
            case "\u{1B}":
                state = .escape(since: now)
                return [.key(.escape)]
            default:
                state = .idle
                if scalar.value >= 0x20 && scalar.value != 0x7F {
                    return [.key(.alt(Character(scalar)))]
                }
                return [.key(.escape)] + (KeyDecoder.key(forCharacter: scalar).map { [.key($0)] } ?? [])
            }

        case .csi(var parameters, _):
            switch scalar.value {
            case 0x20...0x3F:
                parameters.unicodeScalars.append(scalar)
                state = .csi(parameters: parameters, since: now)
                return []
            case 0x40...0x7E:
                state = .idle
                if parameters == "200" && scalar == "~" {
                    state = .paste(text: "", since: now)
                    return []
                }
                return KeyDecoder.key(forCSI: parameters, final: scalar).map { [.key($0)] } ?? []
            default:
                return abortSequence() + feedCharacter(scalar, at: now)
            }

        case .ss3:
            state = .idle
            if let key = KeyDecoder.key(forSS3: scalar) { return [.key(key)] }
            return [.key(.alt("O"))] + feedCharacter(scalar, at: now)

        case .paste(var text, _):
            text.unicodeScalars.append(scalar)
            if scalar == "~", text.hasSuffix(KeyDecoder.pasteEnd) {
                state = .idle
                text.removeLast(KeyDecoder.pasteEnd.count)
                return [.paste(KeyDecoder.normalizeLineBreaks(text))]
            }
            state = .paste(text: text, since: now)
            return []
        }
    }

    /// Ends a held Esc or sequence early, emitting what it spelled so far.
    private mutating func abortSequence() -> [Event] {
        let held = state
        state = .idle
        switch held {
        case .escape: return [.key(.escape)]
        case .csi(let parameters, _): return [.key(.alt("["))] + parameters.map { .key(.char($0)) }
        case .ss3: return [.key(.alt("O"))]
        case .idle, .paste: return []
        }
    }

    static func key(forCharacter scalar: Unicode.Scalar) -> Key? {
        let value = scalar.value
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x7F, 0x08: return .backspace
        case 0x00: return .ctrl(" ")
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(UInt8(0x60 + value))))
        case 0x1C: return .ctrl("\\")
        case 0x1D: return .ctrl("]")
        case 0x1E: return .ctrl("^")
        case 0x1F: return .ctrl("_")
        case 0x80...0x9F: return nil
        default: return .char(Character(scalar))
        }
    }

    static func key(forCode code: Int32) -> Key? {
        switch code {
        case CursesKey.up: return .up
        case CursesKey.down: return .down
        case CursesKey.left: return .left
        case CursesKey.right: return .right
        case CursesKey.home: return .home
        case CursesKey.end: return .end
        case CursesKey.pageUp: return .pageUp
        case CursesKey.pageDown: return .pageDown
        case CursesKey.delete: return .delete
        case CursesKey.insert: return .insert
        case CursesKey.backspace: return .backspace
        case CursesKey.enter: return .enter
        case CursesKey.backTab: return .backTab
        default: return CursesKey.functionNumber(code).map { .function($0) }
        }
    }

    /// xterm-style CSI sequences ncurses may pass through undecoded (modifiers are ignored).
    static func key(forCSI parameters: String, final: Unicode.Scalar) -> Key? {
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        case "~":
            let first = parameters.split(separator: ";").first.flatMap { Int($0) }
            switch first {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case let .some(number) where (11...15).contains(number): return .function(number - 10)
            case let .some(number) where (17...21).contains(number): return .function(number - 11)
            case 23: return .function(11)
            case 24: return .function(12)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// `ESC O x` sequences (application cursor mode).
    static func key(forSS3 final: Unicode.Scalar) -> Key? {
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "P": return .function(1)
        case "Q": return .function(2)
        case "R": return .function(3)
        case "S": return .function(4)
        default: return nil
        }
    }

    static func normalizeLineBreaks(_ text: String) -> String {
        // "\r\n" is a single Character, so replace it first, then lone "\r".
        var result = ""
        for character in text {
            result.append(character == "\r\n" || character == "\r" ? "\n" : character)
        }
        return result
    }
}
