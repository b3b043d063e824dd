import Foundation
import StratusEngine
import StratusCloud

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

    /// The Web Services error dictionary for one record.
    static func json(recordName: String, error: CloudKitError) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("recordName", .string(recordName)),
            ("serverErrorCode", .string(error.code.serverErrorCode)),
            ("ckErrorCode", .string(error.code.name)),
            ("reason", .string(error.message)),
        ]
        if let server = error.serverRecord { members.append(("serverRecord", RecordJSON.encode(server))) }
        if let retryAfter = error.retryAfter { members.append(("retryAfter", .number(retryAfter))) }
        return .object(members)
    }
}
