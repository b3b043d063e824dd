import Foundation
import StratusTestSupport
import Testing
import StratusCloud

/// The real `stratus dashboard` in a tmux pane: start, tabs, a query and a fetch, resize,
/// NO_COLOR, TERM=dumb, and the terminal given back on q and on SIGTERM. Each test polls the
/// pane until the expected text shows (no fixed sleeps).
@Suite(.serialized) struct DashboardEndToEndTests {
    /// One demo store for the suite, made with `stratus demo --no-ui --records 300`.
    static let demo: Result<StratusCLI, any Error> = Result {
        let cli = try StratusCLI()
        // A static is never released: remove the demo's folder when the test process exits.
        atexit { if case .success(let cli) = DashboardEndToEndTests.demo { cli.remove() } }
        let made = try cli.run(["demo", "--no-ui", "--records", "300", "--store", cli.storePath], store: false)
        guard made.status == 0 else { cli.remove(); throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        return cli
    }

    static var tmuxAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux") }

    func dashboardCommand(_ extra: String = "", environment: String = "TERM=tmux-256color") throws -> String {
        let cli = try Self.demo.get()
        return "env \(environment) \(StratusCLI.binary.path) dashboard --store \(cli.storePath) \(extra)"
    }

    @Test(.enabled(if: tmuxAvailable)) func startsSwitchesTabsQueriesAndQuitsCleanly() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        try pane.run(dashboardCommand("--zone Travel --type Trip") + "; echo EXIT=$?")
        try pane.waitFor("Stratus ▸ store.sqlite ▸ private ▸ Travel ▸ Trip")
        // The first page of the query, with the schema's columns.
        try pane.waitForResults()
        #expect(pane.capture().contains("trip-"))
        #expect(pane.capture().contains("budget"))
        pane.keys("2")
        try pane.waitFor("names to fetch")
        pane.keys("i")
        try pane.waitFor("Record names to fetch from Travel")
        pane.type("trip-2 place-1 nope")
        pane.keys("Enter")
        try pane.waitFor("2 of 3 found")
        #expect(pane.capture().contains("not found"))
        pane.keys("3")
        try pane.waitFor("Since the beginning")
        pane.keys("r")
        try pane.waitFor("Done: ")
        pane.keys("4")
        try pane.waitFor("owner")
        #expect(pane.capture().contains("Library"))
        pane.keys("5")
        try pane.waitFor("QUERYABLE")
        pane.keys("?")
        try pane.waitFor("Keys: Schema tab")
        pane.keys("Escape")
        try pane.waitFor("Keys: Schema tab", present: false)
        pane.keys("q")
        try pane.waitFor("EXIT=0")
        // The shell is back in cooked mode with echo, and the dashboard's screen is gone.
        pane.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
        try pane.waitFor("icanon echo")
        #expect(!pane.capture().contains("1 Query"))
    }

    /// The live notifications panel shows what another process (`stratus save`) writes.
    @Test(.enabled(if: tmuxAvailable)) func notificationsPanelShowsAnotherProcessesSaves() throws {
        let cli = try Self.demo.get()
        let created = try cli.run(["subscriptions", "create", "--type", "Trip", "--id", "e2e-live", "--on", "create", "--keys", "title"])
        #expect(created.status == 0, "\(created.stderr)")
        let pane = try TmuxPane(width: 120, height: 30)
        defer { pane.close() }
        try pane.run(dashboardCommand("--zone Travel --type Trip") + "; echo EXIT=$?")
        try pane.waitForResults()
        pane.keys("6")
        try pane.waitFor("e2e-live")
        try pane.waitFor("Notifications · live")
        let record = #"{"recordName": "from-another-process", "recordType": "Trip", "fields": {"title": {"value": "遠く 🛰"}, "nights": {"value": 3}}}"#
        let saved = try cli.run(["save", "--zone", "Travel"], stdin: record)
        #expect(saved.status == 0, "\(saved.stderr)")
        try pane.waitFor("from-another-process")
        #expect(pane.capture().contains("created"))
        pane.keys("Tab")
        pane.keys("G")
        pane.keys("Enter")
        try pane.waitFor("recordChangeTag")
        pane.keys("Escape")
        try pane.waitFor("recordChangeTag", present: false)
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    @Test(.enabled(if: tmuxAvailable)) func filterEditorShowsTheErrorInPlace() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        try pane.run(dashboardCommand("--zone Travel --type Trip") + "; echo EXIT=$?")
        try pane.waitForResults()
        pane.keys("f")
        try pane.waitFor("Filter · Trip")
        pane.keys("Tab")
        pane.type("nights > 3 OR nights < 1")
        try pane.waitFor("nights > 3 OR nights < 1")
        try pane.waitFor("✗")
        let screen = pane.capture()
        #expect(screen.contains("OR"))
        #expect(screen.contains("^"))
        pane.keys("C-u")
        pane.type("nights > 20")
        try pane.waitFor("✓ valid")
        pane.keys("Enter")
        try pane.waitFor("Filter nights > 20")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    /// A click as a terminal sends it (xterm's `ESC [ M` report: button, column, row + 32).
    private func click(_ pane: TmuxPane, x: Int, y: Int) {
        func byte(_ value: Int) -> String { String(UnicodeScalar(UInt8(32 + value))) }
        pane.type("\u{1B}[M" + byte(0) + byte(x + 1) + byte(y + 1))
        pane.type("\u{1B}[M" + byte(3) + byte(x + 1) + byte(y + 1))
    }

    @Test(.enabled(if: tmuxAvailable)) func clicksReachTheDashboardUnlessTurnedOff() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        try pane.run(dashboardCommand("--zone Travel --type Trip") + "; echo EXIT=$?")
        try pane.waitForResults()
        // The dashboard asked the terminal for clicks, and gets them.
        #expect(pane.format("#{mouse_standard_flag}") == "1")
        let tabBar = pane.capture().components(separatedBy: "\n")[1]
        let zones = try #require(tabBar.range(of: "4 Zones"))
        click(pane, x: tabBar.distance(from: tabBar.startIndex, to: zones.lowerBound), y: 1)
        try pane.waitFor("_defaultZone")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
        #expect(pane.format("#{mouse_standard_flag}") == "0", "quitting gives the mouse back to the terminal")
        // --no-mouse: the terminal keeps the mouse (its own selection).
        try pane.run(dashboardCommand("--zone Travel --type Trip --no-mouse") + "; echo EXIT2=$?")
        try pane.waitForResults()
        #expect(pane.format("#{mouse_standard_flag}") == "0")
        pane.keys("q")
        try pane.waitFor("EXIT2=0")
    }

    @Test(.enabled(if: tmuxAvailable)) func redrawsOnResize() throws {
        let pane = try TmuxPane(width: 120, height: 40)
        defer { pane.close() }
        try pane.run(dashboardCommand("--zone Travel --type Trip") + "; echo EXIT=$?")
        try pane.waitFor("3 Changes")
        pane.resize(width: 60, height: 20)
        // Narrow: the current tab's title and the others' first letters, all of them.
        try pane.waitFor("1 Query─2 Fet─3 Cha─")
        #expect(pane.capture().contains("─9 Fau─"))
        let lines = pane.capture().components(separatedBy: "\n")
        #expect(lines.count <= 21)
        pane.resize(width: 100, height: 30)
        // Wider: every title, Subscriptions shortened.
        try pane.waitFor("6 Subs ─ 7 Sharing")
        #expect(pane.capture().contains("8 Logs ─ 9 Faults"))
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    @Test(.enabled(if: tmuxAvailable)) func honoursNoColor() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        try pane.run(dashboardCommand("--zone Travel", environment: "TERM=tmux-256color NO_COLOR=1") + "; echo EXIT=$?")
        try pane.waitFor("1 Query")
        let styled = pane.capture(escapes: true)
        // Attributes (bold, reverse) stay; no foreground or background colour is set.
        let parameters = TmuxPane.sgrParameters(styled)
        #expect(parameters.contains(7) || parameters.contains(1))
        let colours = parameters.filter { (30...38).contains($0) || (40...48).contains($0) || (90...97).contains($0) || (100...107).contains($0) }
        #expect(colours.isEmpty, "colour SGR parameters under NO_COLOR: \(colours)")
        pane.keys("q")
        try pane.waitFor("EXIT=0")
    }

    @Test(.enabled(if: tmuxAvailable)) func refusesTermDumbWithExitCode2() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        try pane.run(dashboardCommand(environment: "TERM=dumb") + "; echo EXIT=$?")
        try pane.waitFor("EXIT=2")
        #expect(pane.capture().contains("TERM=dumb cannot run a full-screen dashboard"))
    }

    @Test func refusesANonTerminal() throws {
        let cli = try Self.demo.get()
        let outcome = try cli.run(["dashboard"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("needs an interactive terminal"))
        // The dashboard is the default subcommand.
        let bare = try cli.run([])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("needs an interactive terminal"))
    }

    @Test(.enabled(if: tmuxAvailable)) func sigtermRestoresTheTerminal() throws {
        try signalRestoresTheTerminal(SIGTERM)
    }

    @Test(.enabled(if: tmuxAvailable)) func sighupRestoresTheTerminal() throws {
        try signalRestoresTheTerminal(SIGHUP)
    }

    /// The signal's handler only notes it; the loop restores the terminal and the process
    /// exits with 128 + signal, leaving the shell in cooked mode with echo.
    func signalRestoresTheTerminal(_ signal: Int32) throws {
        let pane = try TmuxPane(width: 100, height: 30)
        defer { pane.close() }
        let folder = try TemporaryDirectory("stratus-e2e")
        defer { folder.remove() }
        let pidFile = folder.path("dashboard.pid")
        try pane.run("sh -c 'echo $$ > \(pidFile); exec \(dashboardCommand())'; echo EXIT=$?")
        try pane.waitFor("1 Query")
        let pid = try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, signal)
        try pane.waitFor("EXIT=\(128 + signal)")
        #expect(!pane.capture().contains("1 Query"))
        pane.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
        try pane.waitFor("icanon echo")
    }
}

/// A tmux server of its own (a private socket) with one pane running a plain shell.
final class TmuxPane {
    let socket = "stratus-e2e-\(UUID().uuidString.prefix(8))"
    let target = "e2e"
    /// Where each tmux command's output is written.
    private let outputs: TemporaryDirectory

    init(width: Int, height: Int) throws {
        outputs = try TemporaryDirectory("stratus-e2e-tmux")
        // Sanitizer options go through, so a dashboard built with one reports where the others do.
        let sanitizers = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].compactMap { name in
            ProcessInfo.processInfo.environment[name].map { "\(name)='\($0)'" }
        }
        let environment = (["env -i HOME=\(NSHomeDirectory()) PATH=/usr/bin:/bin LANG=C.UTF-8 PS1='$ ' TERM=tmux-256color"] + sanitizers)
            .joined(separator: " ")
        let status = tmux(["new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)",
                           "\(environment) bash --norc --noprofile"]).status
        guard status == 0 else { throw CocoaError(.executableLoad) }
        _ = tmux(["set-option", "-t", target, "status", "off"])
        let pids = tmux(["display-message", "-p", "-t", target, "#{pid} #{pane_pid}"]).output
            .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        serverPID = pids.first
        shellPID = pids.count > 1 ? pids[1] : nil
    }

    private var serverPID: Int32?
    private var shellPID: Int32?

    /// Ends the shell and the server. The server and shell may run with signals blocked (they
    /// inherit the test runner's mask), so they are ended by id with SIGKILL when asking fails.
    func close() {
        keys("C-c")
        run("exit")
        _ = tmux(["kill-server"])
        Thread.sleep(forTimeInterval: 0.05)
        for pid in [shellPID, serverPID].compactMap({ $0 }) where kill(pid, 0) == 0 {
            kill(pid, SIGKILL)
        }
    }

    /// Runs `tmux -u -L SOCKET ARGS` with posix_spawn and waitpid (the server a first command
    /// starts forks away and keeps what it inherited, so neither pipes nor Foundation's
    /// process monitoring are used).
    @discardableResult
    func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        let file = outputs.path("\(UUID().uuidString).out")
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["tmux", "-u", "-L", socket] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        // The test runner's threads block some signals; a child inherits that mask, and a
        // dashboard with SIGWINCH or SIGTERM blocked would never see a resize or a kill.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGWINCH, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        return (exitStatus, output)
    }

    /// Types a command line into the shell and presses Enter.
    func run(_ command: String) {
        tmux(["send-keys", "-t", target, "-l", command])
        tmux(["send-keys", "-t", target, "Enter"])
    }

    /// Presses named keys (`Enter`, `Escape`, `C-u`) or single characters.
    func keys(_ names: String...) {
        for name in names { tmux(["send-keys", "-t", target, name]) }
    }

    /// A tmux format of the pane (`#{mouse_standard_flag}`: whether the program asked for clicks).
    func format(_ text: String) -> String {
        tmux(["display-message", "-p", "-t", target, text]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Types text literally.
    func type(_ text: String) {
        tmux(["send-keys", "-t", target, "-l", text])
    }

    func resize(width: Int, height: Int) {
        tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Every parameter of the SGR sequences (`ESC [ ... m`) in `text`.
    static func sgrParameters(_ text: String) -> [Int] {
        var result: [Int] = []
        for piece in text.components(separatedBy: "\u{1B}[").dropFirst() {
            guard let end = piece.firstIndex(where: { !$0.isNumber && $0 != ";" }), piece[end] == "m" else { continue }
            result += piece[..<end].split(separator: ";").compactMap { Int($0) }
        }
        return result
    }

    func capture(escapes: Bool = false) -> String {
        tmux(["capture-pane", "-p", "-t", target] + (escapes ? ["-e"] : [])).output
    }

    struct Timeout: Error, CustomStringConvertible {
        var expected: String
        var screen: String
        var description: String { "\"\(expected)\" did not appear; the pane shows:\n\(screen)" }
    }

    /// Waits for the Query tab's first page: its header says "N/M loaded" until the whole
    /// result is counted, then "N/M matches".
    func waitForResults(timeout: Duration = .seconds(10)) throws {
        let shown = Poll.until(timeout: timeout) {
            let screen = capture()
            return screen.contains(" loaded") || screen.contains(" matches") || screen.contains(" match ")
        }
        guard shown else { throw Timeout(expected: "loaded or matches", screen: capture()) }
    }

    /// Polls the pane until `text` shows (or, with `present` false, is gone), or throws after
    /// `timeout`.
    func waitFor(_ text: String, present: Bool = true, timeout: Duration = .seconds(10)) throws {
        guard Poll.until(timeout: timeout, { capture().contains(text) == present }) else {
            throw Timeout(expected: text, screen: capture())
        }
    }
}
