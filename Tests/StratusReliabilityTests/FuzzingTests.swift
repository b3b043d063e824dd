import Foundation
import StratusModel
import Testing

/// The fuzz targets of `scripts/fuzz`, run bounded and seeded in the suite: every seed, every
/// input that once crashed (Fuzz/Regressions), then a few thousand mutations of the seeds.
@Suite struct FuzzingTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func files(_ kind: String, _ target: String) -> [(name: String, bytes: [UInt8])] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        return names.compactMap { name in
            (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, [UInt8]($0)) }
        }
    }

    /// The libFuzzer dictionary of a target: one "quoted" word a line, with \xNN, \\ and \" escapes.
    static func dictionary(_ target: String) -> [[UInt8]] {
        let url = fuzzFolder.appendingPathComponent("Dictionaries/\(target).dict")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> [UInt8]? in
            guard line.hasPrefix("\""), line.hasSuffix("\""), line.count >= 2 else { return nil }
            let body = Array(line.dropFirst().dropLast().utf8)
            var bytes: [UInt8] = []
            var index = 0
            while index < body.count {
                if body[index] == UInt8(ascii: "\\"), index + 1 < body.count {
                    if body[index + 1] == UInt8(ascii: "x"), index + 3 < body.count,
                       let value = UInt8(String(decoding: body[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                        bytes.append(value)
                        index += 4
                        continue
                    }
                    bytes.append(body[index + 1])
                    index += 2
                    continue
                }
                bytes.append(body[index])
                index += 1
            }
            return bytes
        }
    }

    /// One mutation of a seed, in the spirit of libFuzzer's: flip, insert, erase, splice, words.
    static func mutate(_ seed: [UInt8], seeds: [[UInt8]], words: [[UInt8]], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0...Int.random(in: 0...3, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: if at < bytes.count { bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random) }
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
            case 2: if at < bytes.count { bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random))) }
            case 3: if let word = words.randomElement(using: &random) { bytes.insert(contentsOf: word, at: at) }
            case 4:
                if let other = seeds.randomElement(using: &random), !other.isEmpty {
                    let start = Int.random(in: 0..<other.count, using: &random)
                    bytes.insert(contentsOf: other[start..<min(other.count, start + Int.random(in: 1...40, using: &random))], at: at)
                }
            case 5: if at < bytes.count { bytes[at] = [0, 0xFF, 0x7F, 0x80, UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: "\"")].randomElement(using: &random)! }
            default: if at < bytes.count { bytes.removeSubrange(at...) }
            }
        }
        return bytes
    }

    func fuzz(_ target: String, mutations: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let seeds = Self.files("Seeds", target)
        #expect(!seeds.isEmpty, "no seeds for \(target) in \(Self.fuzzFolder.path)", sourceLocation: sourceLocation)
        let regressions = Self.files("Regressions", target)
        let words = Self.dictionary(target)
        var random = SeededGenerator(seed: testSeed("fuzz \(target)"))
        var findings = 0
        func attempt(_ bytes: [UInt8], _ label: String) {
            do {
                try FuzzTargets.run(target, bytes)
            } catch {
                findings += 1
                if findings <= 5 {
                    Issue.record("\(label): \(error)\n  input (base64): \(Data(bytes).base64EncodedString())", sourceLocation: sourceLocation)
                }
            }
        }
        let clock = Date()
        for (name, bytes) in seeds { attempt(bytes, "seed \(name)") }
        for (name, bytes) in regressions { attempt(bytes, "regression \(name)") }
        let pool = seeds.map(\.bytes) + regressions.map(\.bytes)
        for index in 0..<mutations {
            var input = pool[Int.random(in: 0..<pool.count, using: &random)]
            // Stack mutations now and then, to get further from the seeds.
            for _ in 0..<(index % 4 == 0 ? 3 : 1) { input = Self.mutate(input, seeds: pool, words: words, using: &random) }
            attempt(input, "mutation \(index)")
        }
        let total = seeds.count + regressions.count + mutations
        print("fuzz \(target): \(total) inputs (\(regressions.count) regressions) in \(String(format: "%.2f", Date().timeIntervalSince(clock))) s")
        #expect(findings == 0, sourceLocation: sourceLocation)
    }

    @Test func predicateParserAndChecker() throws { try fuzz("predicate", mutations: 3000) }
    @Test func recordJSON() throws { try fuzz("record-json", mutations: 3000) }
    @Test func tokensAndCursors() throws { try fuzz("tokens", mutations: 800) }
    @Test func schemaReader() throws { try fuzz("schema", mutations: 2000) }
}
