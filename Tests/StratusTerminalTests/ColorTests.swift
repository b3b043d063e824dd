import Testing
@testable import StratusTerminal

@Suite struct ColorTests {
    @Test func parsesThemeNotations() {
        #expect(Color(parsing: "default") == .default)
        #expect(Color(parsing: "red") == .red)
        #expect(Color(parsing: "brightBlue") == .brightBlue)
        #expect(Color(parsing: "bright-blue") == .brightBlue)
        #expect(Color(parsing: "gray") == .brightBlack)
        #expect(Color(parsing: "#88C0D0") == .rgb(0x88, 0xC0, 0xD0))
        #expect(Color(parsing: "#fff") == .rgb(255, 255, 255))
        #expect(Color(parsing: "236") == .indexed(236))
        #expect(Color(parsing: "blu") == nil)
        #expect(Color(parsing: "#12345") == nil)
        #expect(Color(parsing: "256") == nil)
        #expect(Color.rgb(0x88, 0xC0, 0x0D).name == "#88C00D")
    }

    @Test func stepsDownTrueColorTo256To16ToNone() {
        let pureRed = Color.rgb(255, 0, 0)
        #expect(ColorDepth.trueColor.stepDown(pureRed) == pureRed)
        #expect(ColorDepth.ansi256.stepDown(pureRed) == .indexed(196))
        #expect(ColorDepth.ansi16.stepDown(pureRed) == .brightRed)
        #expect(ColorDepth.none.stepDown(pureRed) == .default)

        #expect(ColorDepth.ansi256.stepDown(.rgb(0x30, 0x30, 0x30)) == .indexed(236))  // gray ramp
        #expect(ColorDepth.ansi256.stepDown(.rgb(0, 0, 0x87)) == .indexed(18))  // exact cube entry
        #expect(ColorDepth.ansi16.stepDown(.indexed(18)) == .blue)
        #expect(ColorDepth.ansi16.stepDown(.indexed(231)) == .brightWhite)
        #expect(ColorDepth.ansi16.stepDown(.indexed(9)) == .brightRed)
        #expect(ColorDepth.ansi16.stepDown(.default) == .default)
        #expect(ColorDepth.none.stepDown(.cyan) == .default)
    }

    @Test func withoutColourAttributesStayAndBackgroundsBecomeReverse() {
        let selection = Style(fg: .black, bg: .rgb(0xDD, 0xF4, 0xFF), .bold)
        let plain = ColorDepth.none.stepDown(selection)
        #expect(plain == Style(.bold, .reverse))
        let underlined = ColorDepth.none.stepDown(Style(fg: .red, .underline))
        #expect(underlined == Style(.underline))
        #expect(ColorDepth.ansi16.stepDown(selection).background == .brightWhite)
    }

    @Test func detectsDepthFromTheEnvironment() {
        #expect(ColorDepth.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm", "COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorDepth.detect(environment: ["TERM": "tmux-256color"]) == .ansi256)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm"]) == .ansi16)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm"], cursesColors: 256) == .ansi256)
        #expect(ColorDepth.detect(environment: ["TERM": "vt100"], cursesColors: 0) == .none)
        #expect(ColorDepth.detect(environment: ["TERM": "dumb"]) == .none)
        #expect(ColorDepth.detect(environment: [:]) == .none)
        // NO_COLOR: any non-empty value wins, an empty one is ignored.
        #expect(ColorDepth.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]) == .none)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": ""]) == .ansi256)
    }
}
