import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

/// Prints CloudKit errors the way the command line promises: name, number and a sentence.
enum ErrorReporter {
    static func report(_ error: CloudKitError) {
        var lines = ["error: \(error)"]
        for (name, item) in error.partialErrors.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name): \(item)")
        }
        if let advice = CommandLineAdvice.advice(for: error) { lines.append("hint: \(advice)") }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// With `--json`, a failure is also a JSON line on standard output, in the Web Services
    /// error's shape, so a script reading standard output learns why there is no result:
    /// `serverErrorCode`, `ckErrorCode`, `reason`, the command line's `hint`, and the
    /// per-record errors of a batch under `partialErrors`.
    static func reportJSON(_ error: CloudKitError) {
        guard case .object(var members) = ItemErrorJSON.encode(error, item: [], layout: .codeFirst) else { return }
        if let advice = CommandLineAdvice.advice(for: error) { members.append(("hint", .string(advice))) }
        if !error.partialErrors.isEmpty {
            let items = error.partialErrors.sorted(by: { $0.key < $1.key }).map { name, item in
                (name, ItemErrorJSON.encode(item, item: [], layout: .codeFirst))
            }
            members.append(("partialErrors", .object(items)))
        }
        Output.json(.object(members))
    }

    /// A usage problem or a failure the command explained in words, as `--json` reports it:
    /// a request the command could not make, `BAD_REQUEST`.
    static func reportJSON(failure reason: String) {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        Output.json(ItemErrorJSON.encode(item: [], serverErrorCode: "BAD_REQUEST", reason: reason, layout: .codeFirst))
    }

    /// Whether the command line asks for JSON (`--json` before any `--`).
    static func wantsJSON(_ arguments: [String]) -> Bool {
        arguments.prefix(while: { $0 != "--" }).contains("--json")
    }

    /// The Web Services error dictionary for one record, with CloudKit's name of the code.
    static func json(recordName: String, error: CloudKitError) -> JSONValue {
        ItemErrorJSON.encode(error, item: [("recordName", .string(recordName))], layout: .codeFirst)
    }
}
