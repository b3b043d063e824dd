import StratusEngine
import StratusCloud

/// The options of a new fault as typed in the dashboard, in the command line's words
/// (`--zone Travel --every 2 --retry-after 5`), so what a person learned in one works in the other.
enum FaultSpec {
    /// The options the dialog takes, for its hint and its errors.
    static let options = ["--db", "--zone", "--operation", "--record", "--token", "--after", "--every",
                          "--probability", "--seed", "--retry-after", "--limit", "--set"]

    /// The fault the text describes, or what is wrong with it (checked by the engine's rules too).
    static func parse(kind: FaultKind, _ text: String) -> Result<Fault, FaultSpecError> {
        let words: [String]
        switch split(text) {
        case .success(let split): words = split
        case .failure(let error): return .failure(error)
        }
        var fault = Fault(kind: kind)
        var trigger: FaultTrigger?
        var probability: Double?, seed: UInt64?
        var assignments: [String] = []
        var index = 0
        while index < words.count {
            let option = words[index]
            // `--database` is the old name of `--db`, still read.
            guard options.contains(option) || option == "--database" else {
                return .failure(FaultSpecError("'\(option)' is not an option; use \(options.joined(separator: " "))"))
            }
            guard index + 1 < words.count else { return .failure(FaultSpecError("\(option) needs a value")) }
            let value = words[index + 1]
            index += 2
            func number<T: LosslessStringConvertible>(_ type: T.Type) -> T? { T(value) }
            switch option {
            case "--db", "--database":
                guard let scope = DatabaseScope(name: value) else { return .failure(FaultSpecError("--db is public, private or shared")) }
                fault.scope = scope
            case "--zone": fault.zoneName = value
            case "--operation":
                guard let operation = FaultOperation(name: value) else {
                    return .failure(FaultSpecError("--operation is one of \(FaultOperation.allCases.map(\.name).joined(separator: ", "))"))
                }
                fault.operation = operation
            case "--record": fault.recordNames += value.split(separator: ",").map(String.init)
            case "--token": fault.token = value
            case "--after", "--every":
                guard let n = number(Int.self) else { return .failure(FaultSpecError("\(option) takes a whole number, not '\(value)'")) }
                guard trigger == nil && probability == nil else { return .failure(FaultSpecError("give one of --after, --every and --probability")) }
                trigger = option == "--after" ? .after(n) : .every(n)
            case "--probability":
                guard let p = number(Double.self) else { return .failure(FaultSpecError("--probability takes a number from 0 to 1")) }
                guard trigger == nil else { return .failure(FaultSpecError("give one of --after, --every and --probability")) }
                probability = p
            case "--seed":
                guard let s = number(UInt64.self) else { return .failure(FaultSpecError("--seed takes a whole number")) }
                seed = s
            case "--retry-after":
                guard let seconds = number(Double.self) else { return .failure(FaultSpecError("--retry-after takes seconds")) }
                fault.retryAfter = seconds
            case "--limit":
                guard let limit = number(Int.self) else { return .failure(FaultSpecError("--limit takes a whole number")) }
                fault.itemLimit = limit
            default: // --set
                guard value.contains("=") else { return .failure(FaultSpecError("--set takes FIELD=VALUE")) }
                assignments.append(value)
            }
        }
        if (probability == nil) != (seed == nil) { return .failure(FaultSpecError("--probability and --seed go together")) }
        if let probability, let seed { trigger = .probability(probability, seed: seed) }
        // The defaults that depend on the options given (an expired token, a limit).
        fault = Fault(kind: kind, scope: fault.scope, zoneName: fault.zoneName, operation: fault.operation, recordNames: fault.recordNames,
                      token: fault.token, trigger: trigger, retryAfter: fault.retryAfter, itemLimit: fault.itemLimit,
                      otherDeviceFields: assignments.isEmpty ? nil : Fault.otherDeviceFields(assignments))
        if let problem = fault.problem { return .failure(FaultSpecError(problem)) }
        return .success(fault)
    }

    /// Words split on spaces; "double quotes" keep spaces in a value.
    private static func split(_ text: String) -> Result<[String], FaultSpecError> {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if quoted { return .failure(FaultSpecError("a quote is not closed")) }
        if started { words.append(current) }
        return .success(words)
    }
}

struct FaultSpecError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
