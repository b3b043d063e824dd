import Foundation
import Testing

/// The server's answers go to web clients built for iCloud: their reasons say what CloudKit
/// says, never a `stratus` command (the command line and the README give that advice).
@Suite struct ServerWordsTests {
    @Test func noServerAnswerNamesAStratusCommand() throws {
        let files = try SourceTree.swiftFiles(in: "StratusServer")
        #expect(files.count > 10)
        var offenders: [String] = []
        for file in files {
            for (index, line) in try SourceTree.lines(of: file).enumerated() where !SourceTree.isComment(line) && Self.answerNamesACommand(line) {
                offenders.append("\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "server answers naming a stratus command:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theRuleSeesAnAnswerWithAdvice() {
        #expect(Self.answerNamesACommand(#"throw CKWSFailure.authenticationFailed("no auth method found: make one with `stratus auth api-token`")"#))
        #expect(Self.answerNamesACommand(#"return .badRequest("run stratus schema import FILE first")"#))
        #expect(!Self.answerNamesACommand(#"throw CKWSFailure.authenticationFailed("no auth method found")"#))
        #expect(!Self.answerNamesACommand(#"var logger = Logger(label: "stratus.serve")"#))
    }

    /// A line making a failure (`CKWSFailure`, `.badRequest(`, `required(` ...) whose text names `stratus VERB`.
    static func answerNamesACommand(_ line: Substring) -> Bool {
        let makesAnAnswer = ["CKWSFailure", ".badRequest(", ".notFound(", ".authenticationFailed(", "required(", "reason:"].contains { line.contains($0) }
        let literal = line.drop { $0 != "\"" }
        return makesAnAnswer && literal.range(of: #"\bstratus [a-z]"#, options: [.regularExpression, .caseInsensitive]) != nil
    }
}
