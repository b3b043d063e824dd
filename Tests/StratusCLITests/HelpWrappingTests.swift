import Foundation
import StratusTestSupport
import Testing

/// Help texts are paragraphs that the help printer wraps to the terminal's width; wrapped by hand
/// as well, they broke mid-sentence at one width or another (a lone "is" or "delete" on a line).
@Suite struct HelpWrappingTests {
    /// The help of `path`, laid out for a terminal `columns` wide.
    private func help(_ path: [String], columns: Int) throws -> String {
        try StratusBinary.run(path + ["--help"], environment: ["COLUMNS": String(columns)]).stdout
    }

    /// Every command and subcommand, read from the SUBCOMMANDS sections of the help itself.
    private func commands(under path: [String] = []) throws -> [[String]] {
        let text = try help(path, columns: 200)
        guard let section = text.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [path] }
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "See" && $0 != "help" }
        return try [path] + names.flatMap { try commands(under: path + [$0]) }
    }

    @Test func noHelpTextBreaksMidSentenceWhenTheTerminalIsWide() throws {
        let all = try commands()
        #expect(all.count > 30, "\(all)")
        for path in all {
            let text = try help(path, columns: 5_000)
            let prose = text.components(separatedBy: "USAGE:").first ?? ""
            let lines = prose.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !next.isEmpty {
                let ends = line.last.map { ".:;)".contains($0) } ?? true
                let continues = next.first.map { $0.isLowercase || $0 == "(" || $0 == "{" } ?? false
                #expect(ends || !continues, "stratus \(path.joined(separator: " ")) --help breaks a sentence by hand:\n\(line)\n\(next)")
            }
        }
    }
}
