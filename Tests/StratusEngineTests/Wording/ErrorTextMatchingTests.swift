import Foundation
import Testing

/// The front ends decide what an error is from its code and typed reason, never from its
/// English: a sentence reworded in the engine must not silently change the command line's
/// advice, the dashboard's status line or a web client's `serverErrorCode` (ARCHITECTURE.md,
/// decision 8).
@Suite struct ErrorTextMatchingTests {
    static let frontEnds = ["stratus", "StratusServer", "StratusDashboard"]

    @Test func noFrontEndMatchesTheWordsOfAnError() throws {
        var checked = 0
        var offenders: [String] = []
        for target in Self.frontEnds {
            let files = try SourceTree.swiftFiles(in: target)
            #expect(files.count > 5, "\(target) has \(files.count) Swift files")
            checked += files.count
            for file in files {
                for (index, line) in try SourceTree.lines(of: file).enumerated() where !SourceTree.isComment(line) && Self.matchesErrorText(line) {
                    offenders.append("\(target)/\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(checked > 100)
        #expect(offenders.isEmpty, "front-end code matching an error's text (switch on its code or reason instead):\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theRuleSeesEachFormOfMatching() {
        let matching = [
            #"case .unknownItem where error.message.hasPrefix("Did not find"):"#,
            #"if message.contains("fault plan") {"#,
            #"guard failure.reason.hasSuffix("sign in again") else {"#,
            #"let shared = error.description.contains("shared database")"#,
            #"if "\(error)".hasPrefix("zoneNotFound") {"#,
            #"if underlyingError.localizedDescription.range(of: "busy") != nil {"#,
        ]
        let fine = [
            #"case .unknownRecordType: return .badRequest(error.message)"#,
            #"return description.hasSuffix(".0") ? String(description.dropLast(2)) : description"#,
            #"if lower.hasSuffix(":desc") { return QuerySort(String(text.dropLast(5)), ascending: false) }"#,
        ]
        for line in matching { #expect(Self.matchesErrorText(Substring(line)), "\(line)") }
        for line in fine { #expect(!Self.matchesErrorText(Substring(line)), "\(line)") }
    }

    /// Text tests on a message or reason, or on an error's description (however it is spelled).
    static func matchesErrorText(_ line: Substring) -> Bool {
        let test = #"\??\.(contains|hasPrefix|hasSuffix|starts\(with|range\(of)\b"#
        let patterns = [
            #"\b(message|reason)"# + test,
            #"\b\w*(error|Error|failure|Failure)\??\.(message|reason|description|localizedDescription|errorDescription)"# + test,
            #""\\\(\w*(error|Error|failure|Failure)\)""# + test,
            #"String\(describing: \w*(error|Error|failure|Failure)\)"# + test,
        ]
        return patterns.contains { line.range(of: $0, options: .regularExpression) != nil }
    }
}
