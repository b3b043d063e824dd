import Foundation
import Testing
import StratusCloud

/// The engine's errors reach the command line, the dashboard and web clients of the server
/// alike, so they speak CloudKit's words: no command, flag or backticked advice of one front end.
@Suite struct EngineWordsTests {
    @Test func noEngineErrorMentionsACommandOrAFlag() throws {
        let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/StratusEngine")
        let files = try #require(FileManager.default.enumerator(at: engine, includingPropertiesForKeys: nil)?.allObjects as? [URL])
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 50)
        var offenders: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() where line.contains("CloudKitError(") {
                let literal = line.drop { $0 != "\"" }
                if literal.contains("stratus ") || literal.contains("`") || literal.range(of: "--[a-z]", options: .regularExpression) != nil {
                    offenders.append("\(file.lastPathComponent):\(number + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "engine errors with command-line advice: \(offenders)")
    }
}
