import Foundation

/// The escape sequence that asks a terminal to put text on the system clipboard (OSC 52),
/// which works over SSH too. Inside tmux it is wrapped in tmux's passthrough, so it reaches the
/// terminal around tmux rather than only tmux's own buffer.
public enum OSC52 {
    public static func sequence(copying text: String, insideTmux: Bool) -> String {
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        return insideTmux ? "\u{1B}Ptmux;\u{1B}" + sequence + "\u{1B}\\" : sequence
    }
}
