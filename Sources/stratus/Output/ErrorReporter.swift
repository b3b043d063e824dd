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

    /// The Web Services error dictionary for one record, with CloudKit's name of the code.
    static func json(recordName: String, error: CloudKitError) -> JSONValue {
        ItemErrorJSON.encode(error, item: [("recordName", .string(recordName))], layout: .codeFirst)
    }
}
