import Foundation
import Testing

/// The engine's errors reach web clients (the server) and the dashboard as they are: they speak
/// CloudKit's words, and each client adds its own advice (`CommandLineAdvice` for the command line).
@Suite struct EngineWordingTests {
    @Test func noEngineMessageNamesACommandOrAnOption() throws {
        let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/StratusEngine")
        let files = try #require(FileManager.default.enumerator(at: engine, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL })
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 50)
        let option = try Regex(#""[^"\n]*(\s--[a-z][a-z-]+|`stratus |stratus [a-z]+ --)[^"\n]*""#)
        var found: [String] = []
        for file in files {
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), line.contains(option) else { continue }
                found.append("\(file.lastPathComponent):\(number + 1): \(code)")
            }
        }
        #expect(found.isEmpty, "engine strings naming a command or an option:\n\(found.joined(separator: "\n"))")
    }
}
