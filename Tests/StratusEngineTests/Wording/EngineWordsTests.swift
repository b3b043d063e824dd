import Foundation
import Testing

/// The engine's errors reach the command line, the dashboard and web clients of the server
/// alike, so they speak CloudKit's words: no command, option or backticked advice of one front
/// end. Each front end adds its own advice (`CommandLineAdvice` for the command line).
@Suite struct EngineWordsTests {
    @Test func noEngineTextNamesACommandOrAnOption() throws {
        let files = try SourceTree.swiftFiles(in: "StratusEngine")
        #expect(files.count > 50)
        var offenders: [String] = []
        for file in files {
            for (index, line) in try SourceTree.lines(of: file).enumerated()
            where try Self.literalNamesACommandOrAnOption(line) || Self.errorGivesCommandLineAdvice(line) {
                offenders.append("\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "engine strings naming a command or an option:\n\(offenders.joined(separator: "\n"))")
    }

    /// A string literal in code (not a comment) with ` --option`, `` `stratus `` or `stratus verb --`.
    static func literalNamesACommandOrAnOption(_ line: Substring) throws -> Bool {
        let option = try Regex(#""[^"\n]*(\s--[a-z][a-z-]+|`stratus |stratus [a-z]+ --)[^"\n]*""#)
        return !SourceTree.isComment(line) && line.contains(option)
    }

    /// A line making a `CloudKitError` whose text names `stratus `, a backticked word or a `--flag`.
    static func errorGivesCommandLineAdvice(_ line: Substring) -> Bool {
        guard line.contains("CloudKitError(") else { return false }
        let literal = line.drop { $0 != "\"" }
        return literal.contains("stratus ") || literal.contains("`") || literal.range(of: "--[a-z]", options: .regularExpression) != nil
    }
}
