#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks, before taking over the screen, that there is a terminal to take over.
///
/// Full-screen mode on a pipe or a `dumb` terminal only produces garbage, so the app should
/// refuse with a clear message and exit code 2 (bad usage). The library only reports; the
/// executable decides to exit.
public enum TerminalCheck {
    /// Why the terminal cannot be used, with the exit code the executable should use.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var exitCode: Int32

        public init(message: String, exitCode: Int32 = 2) {
            self.message = message
            self.exitCode = exitCode
        }

        public var description: String { message }
    }

    /// nil if the dashboard can start, else the reason it cannot.
    public static func check(
        environment: [String: String],
        stdinIsTTY: Bool = isatty(0) != 0,
        stdoutIsTTY: Bool = isatty(1) != 0
    ) -> Failure? {
        if !stdinIsTTY || !stdoutIsTTY {
            let which = !stdinIsTTY && !stdoutIsTTY ? "stdin and stdout are" : (!stdinIsTTY ? "stdin is" : "stdout is")
            return Failure(message: "the dashboard needs an interactive terminal, but \(which) not a terminal; "
                + "use the subcommands (stratus query, stratus changes, ...) in scripts")
        }
        let term = environment["TERM"] ?? ""
        if term.isEmpty {
            return Failure(message: "TERM is not set, so the terminal's capabilities are unknown; "
                + "set TERM (e.g. TERM=xterm-256color) or use the subcommands")
        }
        if term == "dumb" {
            return Failure(message: "TERM=dumb cannot run a full-screen dashboard; "
                + "use a real terminal or the subcommands (stratus query, stratus changes, ...)")
        }
        return nil
    }
}
