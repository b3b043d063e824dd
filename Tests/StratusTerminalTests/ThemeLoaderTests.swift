import Foundation
import Testing
import StratusTestSupport
@testable import StratusTerminal

@Suite struct ThemeLoaderTests {
    /// The repository's themes/ directory.
    static let shippedThemes = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes").path

    /// A fresh directory holding the given files, removed when the value goes away.
    static func directory(_ files: [String: String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("stratus-themes")
        for (name, contents) in files {
            try folder.write(Data(contents.utf8), to: name)
        }
        return folder
    }

    @Test func everyShippedThemeLoadsAndSetsEverySlot() throws {
        let loader = ThemeLoader(directory: Self.shippedThemes)
        #expect(loader.availableThemes() == ["default", "high-contrast", "light", "mono"])
        for name in loader.availableThemes() {
            let theme = try loader.load(named: name)
            #expect(theme.name == name)
            for slot in ThemeSlot.builtIn {
                #expect(theme.styles[slot] != nil, "\(name) lacks \(slot)")
            }
        }
    }

    @Test func defaultFileMatchesTheBuiltInTheme() throws {
        let loaded = try ThemeLoader(directory: Self.shippedThemes).load(named: "default")
        #expect(loaded == Theme.builtInDefault)
    }

    @Test func monoUsesNoColourAndKeepsSelectionVisible() throws {
        let mono = try ThemeLoader(directory: Self.shippedThemes).load(named: "mono")
        for style in mono.styles.values {
            #expect(style.foreground == .default && style.background == .default)
        }
        #expect(mono[.selection].isReversed)
    }

    @Test func lightThemeUsesItsPalette() throws {
        let light = try ThemeLoader(directory: Self.shippedThemes).load(named: "light")
        #expect(light[.error].foreground == .rgb(0xCF, 0x22, 0x2E))
        #expect(light[.selection].background == .rgb(0xDD, 0xF4, 0xFF))
        #expect(light.steppedDown(to: .ansi256)[.error].foreground == .indexed(160))
    }

    @Test func badColourNamesTheFileAndKey() throws {
        let directory = try Self.directory([
            "broken.json": ##"{ "slots": { "text": {}, "selection": { "fg": "blu" } } }"##
        ])
        defer { directory.remove() }
        let loader = ThemeLoader(directory: directory.path)
        let error = try #require(throws: ThemeError.self) { try loader.load(named: "broken") }
        #expect(error.file.hasSuffix("broken.json"))
        #expect(error.key == "slots.selection.fg")
        #expect(error.description.contains("broken.json: slots.selection.fg: unknown colour \"blu\""))
    }

    @Test func unknownSlotAndAttributeAreErrors() throws {
        let directory = try Self.directory([
            "typo.json": ##"{ "slots": { "selecton": { "fg": "red" } } }"##,
            "attr.json": ##"{ "slots": { "title": { "attrs": ["bold", "blink"] } } }"##,
            "extra.json": ##"{ "colours": {} }"##,
        ])
        defer { directory.remove() }
        let loader = ThemeLoader(directory: directory.path)
        let typo = try #require(throws: ThemeError.self) { try loader.load(named: "typo") }
        #expect(typo.key == "slots.selecton")
        #expect(typo.message.contains("unknown slot"))
        let attr = try #require(throws: ThemeError.self) { try loader.load(named: "attr") }
        #expect(attr.key == "slots.title.attrs[1]")
        let extra = try #require(throws: ThemeError.self) { try loader.load(named: "extra") }
        #expect(extra.key == "colours")
    }

    @Test func badJSONReportsTheLine() throws {
        let directory = try Self.directory(["bad.json": "{\n  \"slots\": {\n    \"text\": { \"fg\": \"red\" },,\n  }\n}\n"])
        defer { directory.remove() }
        let error = try #require(throws: ThemeError.self) { try ThemeLoader(directory: directory.path).load(named: "bad") }
        #expect(error.file.hasSuffix("bad.json"))
        #expect(error.key == nil)
        #expect(error.message.contains("line 3"), "\(error)")
    }

    @Test func fallsBackToTheBuiltInDefault() throws {
        let directory = try Self.directory(["broken.json": ##"{ "slots": { "text": { "bg": 300 } } }"##])
        defer { directory.remove() }
        let loader = ThemeLoader(directory: directory.path)
        let (theme, error) = loader.loadOrDefault(named: "broken")
        #expect(theme == .builtInDefault)
        #expect(error?.key == "slots.text.bg")
        let missing = loader.loadOrDefault(named: "nope")
        #expect(missing.theme == .builtInDefault)
        #expect(missing.error?.message.contains("no such theme file") == true)
        #expect(loader.loadOrDefault(named: "../etc/passwd").error != nil)
        #expect(loader.loadOrDefault(named: "default").error == nil)  // built in, no file needed
    }

    @Test func extendsOverridesOnlyNamedSlotsAndDetectsLoops() throws {
        let directory = try Self.directory([
            "base.json": ##"{ "palette": { "sea": "#0000AA" }, "slots": { "accent": { "fg": "sea" } } }"##,
            "child.json": ##"{ "extends": "base", "slots": { "error": { "fg": "#FF0000", "attrs": ["bold"] } } }"##,
            "a.json": ##"{ "extends": "b" }"##,
            "b.json": ##"{ "extends": "a" }"##,
        ])
        defer { directory.remove() }
        let loader = ThemeLoader(directory: directory.path)
        let child = try loader.load(named: "child")
        #expect(child.name == "child")
        #expect(child[.accent] == Style(fg: .rgb(0, 0, 0xAA)))
        #expect(child[.error] == Style(fg: .rgb(255, 0, 0), .bold))
        #expect(child[.selection] == Theme.builtInDefault[.selection])
        let loop = try #require(throws: ThemeError.self) { try loader.load(named: "a") }
        #expect(loop.key == "extends")
    }

    @Test func appsCanAddTheirOwnSlots() throws {
        let directory = try Self.directory(["app.json": ##"{ "slots": { "valueDate": { "fg": "cyan" } } }"##])
        defer { directory.remove() }
        let extended = ThemeLoader(directory: directory.path, knownSlots: ThemeSlot.builtIn + ["valueDate"])
        #expect(try extended.load(named: "app")["valueDate"] == Style(fg: .cyan))
        #expect(throws: ThemeError.self) { try ThemeLoader(directory: directory.path).load(named: "app") }
    }

    @Test func noColorStepsAThemeDownToAttributes() throws {
        let light = try ThemeLoader(directory: Self.shippedThemes).load(named: "light")
        let depth = ColorDepth.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        let plain = light.steppedDown(to: depth)
        for style in plain.styles.values {
            #expect(style.foreground == .default && style.background == .default)
        }
        #expect(plain[.selection].isReversed && plain[.selection].isBold)
        #expect(plain[.errorUnderline].isUnderlined)
    }
}
