import Testing
import StratusTerminal

@Suite struct OSC52Tests {
    @Test func theClipboardSequenceCarriesTheTextInBase64() {
        #expect(OSC52.sequence(copying: "trip-1 京都 🍁", insideTmux: false) == "\u{1B}]52;c;dHJpcC0xIOS6rOmDvSDwn42B\u{07}")
        // Inside tmux, wrapped in its passthrough (the escape inside doubled) for the outer terminal.
        #expect(OSC52.sequence(copying: "a", insideTmux: true) == "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;YQ==\u{07}\u{1B}\\")
    }
}
