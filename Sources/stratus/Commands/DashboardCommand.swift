import ArgumentParser
import Foundation
import StratusDashboard
import StratusEngine
import StratusPredicates
import StratusTerminal
import StratusCloud
import StratusRemote
import StratusStores

struct DashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "The terminal dashboard: Query, Fetch and Changes tabs, zones, schema, subscriptions and live notifications (the default subcommand).",
        discussion: """
            Keys: ? shows every key of the view; 1-9 switch tabs; q quits. Needs an interactive terminal \
            (TERM set and not dumb); exits 2 otherwise.
            Themes are JSON files named NAME.json, looked for in $STRATUS_THEMES, ./themes, the installed \
            share/stratus/themes, then the themes folder of the Stratus checkout that built the binary. NO_COLOR turns colours off.
            Recent filters and change-token bookmarks are kept in STORE.dashboard.json next to the store.
            With --remote NAME the dashboard works on a remote container over CloudKit Web Services: the header says \
            remote: NAME (environment); the Schema, Logs and Faults tabs are local-only; Act As picks among the \
            signed-in user's databases; writes to a production container ask first unless --yes; a throttled call \
            counts down in the status line and is sent again (Esc stops it). Its preferences are kept in \
            dashboard-NAME.json in the remotes' folder.
            The dashboard acts as its own device (--device, default stratus-dashboard): the notifications panel shows notifications of changes made by other processes and devices, not its own edits.
            """
    )

    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "A remote container (see `stratus remote`) in place of --store, reached over CloudKit Web Services.") var remote: String?
    @Flag(help: "Writes to a production remote go without asking first (for scripts).") var yes = false
    @Option(help: "The theme: a NAME.json in the themes folder (default, light, high-contrast, mono).") var theme: String = "default"
    @Option(help: "The database: public, private or shared.") var db: String = "private"
    @Option(help: "The zone (default: \(ZoneID.defaultZoneName), or the zone with the most records when that one has none).") var zone: String?
    @Option(help: "The record type the Query tab starts with (default: the one with the most records in the zone).") var type: String?
    @Option(help: "The user who acts: an alias, a user record name or 'none' (default: the user Act As chose last on this store, else its owner).") var user: String?
    @Option(help: "The device the dashboard acts as; notifications of its own changes are not shown.")
    var device: String = DashboardServices.defaultDevice
    @Flag(help: "Leave the mouse to the terminal (its own selection); also STRATUS_MOUSE=off.") var noMouse = false

    func run() throws {
        guard let scope = DatabaseScope(name: db) else {
            throw CommandFailure.usage("--db must be public, private or shared, not '\(db)'")
        }
        if remote != nil {
            if store != nil { throw CommandFailure.usage("give --store or --remote, not both") }
            if user != nil { throw CommandFailure.usage("--user acts as a user of a local store; a remote acts as its signed-in user (Act As picks among their databases)") }
        }
        try DashboardLauncher.run(DashboardLauncher.Options(
            storePath: store ?? StoreLocation.defaultPath, remote: remote, confirmsWrites: !yes, scope: scope, zone: zone,
            recordType: type, theme: theme, user: user, device: device, mouse: !noMouse))
    }
}

/// Opens the dashboard on a store or a remote container: checks the terminal, loads the theme
/// and preferences, and runs the event loop until the user quits.
enum DashboardLauncher {
    struct Options {
        var storePath: String
        /// A remote container in place of the store.
        var remote: String?
        /// Writes to a production remote ask first.
        var confirmsWrites = true
        var scope: DatabaseScope = .private
        /// nil: the default zone, or the busiest one when that holds nothing.
        var zone: String?
        var recordType: String?
        var theme: String = "default"
        var user: String?
        var device: String = DashboardServices.defaultDevice
        /// Clicks and the wheel reach the dashboard, unless `--no-mouse` or `STRATUS_MOUSE=off`.
        var mouse = true
    }

    static func run(_ options: Options, store opened: Store? = nil) throws {
        let environment = ProcessInfo.processInfo.environment
        if let failure = TerminalCheck.check(environment: environment) {
            throw CommandFailure(message: "error: \(failure.message)", exitCode: failure.exitCode)
        }
        let themesDirectory = ThemeDirectory.find(environment: environment)
        let loader = themesDirectory.map { ThemeLoader(directory: $0) }
        let container = try options.remote.map { try remoteContainer(named: $0, options) }
            ?? localStore(options, opened: opened, environment: environment)
        var state = container.state
        state.themeNames = loader?.availableThemes() ?? []
        if let loader {
            let (theme, error) = loader.loadOrDefault(named: options.theme)
            state.theme = theme
            if let error { state.status = StatusMessage("Theme not loaded: \(error.description); using the default.", kind: .error) }
        } else if options.theme != "default" {
            state.status = StatusMessage("No themes folder found (set STRATUS_THEMES); using the default theme.", kind: .error)
        }

        let services = DashboardServices(
            cloud: container.cloud, themeLoader: loader, clipboard: { Clipboard.copy($0, environment: environment) },
            preferencesPath: container.preferencesPath, throttle: container.throttle)
        let mailbox = Mailbox<DashboardMail>()
        let mouseOff = ["off", "0", "no", "false"].contains(environment["STRATUS_MOUSE"]?.lowercased() ?? "")
        let backend = NcursesBackend(environment: environment, mouse: options.mouse && !mouseOff)
        try backend.setUp()
        state.size = backend.size
        var app = DashboardApp(state: state, runner: EffectRunner(services: services), mailbox: mailbox,
                               tracePath: environment["STRATUS_DASHBOARD_TRACE"])
        app.start()
        let loop = EventLoop(app: app, backend: backend, mailbox: mailbox, tickInterval: .milliseconds(150))
        do {
            try loop.run()
        } catch let signal as TerminalSignal {
            // The terminal is restored by now; leave as a process ended by the signal does.
            throw CommandFailure(message: "", exitCode: signal.exitCode)
        }
    }

    /// What the dashboard opens on: the container, the first state, where its preferences
    /// live, and (on a remote) who counts throttling down.
    struct Opened {
        var cloud: any CloudService
        var state: DashboardState
        var preferencesPath: String
        var throttle: ThrottleCountdown?
    }

    /// How much of a store the dashboard maps: nothing, unless `STRATUS_DASHBOARD_MMAP` says.
    static func memoryMapBytes(_ environment: [String: String]) -> Int {
        Int(environment["STRATUS_DASHBOARD_MMAP"] ?? "") ?? 0
    }

    /// A local store (SQLite or PostgreSQL): preferences beside it, Act As among its users.
    static func localStore(_ options: Options, opened: Store?, environment: [String: String]) throws -> Opened {
        // The dashboard lives long and reads pages of 50: it maps little of the store, so its
        // resident memory stays small on a store of a million records (scripts/dashboard-memory).
        let store = try opened ?? StoreLocation.open(options.storePath, ifMissing: .refuse, memoryMapBytes: memoryMapBytes(environment))
        let preferencesPath = PreferencesFile.path(forStore: options.storePath)
        var state = firstState(options, storePath: options.storePath, preferencesPath: preferencesPath)
        // Who acts: --user, else whom Act As chose last time on this store, else the owner.
        if let name = options.user {
            state.acting = try store.caller(named: name)
        } else if let kept = state.preferences.actingUser {
            state.acting = try? store.caller(named: kept)
        }
        let cloud = LocalCloudService(store: store, acting: ActingUser(state.acting), device: options.device)
        return Opened(cloud: cloud, state: state, preferencesPath: preferencesPath)
    }

    /// A remote container over CloudKit Web Services: preferences in the remotes' folder, a
    /// throttled call counted down in the status line (and waited out longer than the command
    /// line does, since Esc stops it).
    static func remoteContainer(named name: String, _ options: Options) throws -> Opened {
        let throttle = ThrottleCountdown()
        let service = try RemoteCommand.service(named: name, retry: RetryPolicy(attempts: 5, longestWait: 600), waiter: throttle)
        let preferencesPath = PreferencesFile.path(forRemote: name, in: RemoteCommand.configurationFolder.folder)
        var state = firstState(options, storePath: name, preferencesPath: preferencesPath)
        let environment = try service.environment()
        state.remote = RemoteContainer(name: name, environment: environment, confirmsWrites: options.confirmsWrites && environment == .production)
        return Opened(cloud: service, state: state, preferencesPath: preferencesPath, throttle: throttle)
    }

    private static func firstState(_ options: Options, storePath: String, preferencesPath: String) -> DashboardState {
        var state = DashboardState(storePath: storePath, scope: options.scope,
                                   zone: ZoneID(zoneName: options.zone ?? ZoneID.defaultZoneName), recordType: options.recordType)
        state.settlesOnBusiestZone = options.zone == nil
        state.preferences = PreferencesFile.load(from: preferencesPath)
        return state
    }
}

/// Where theme files are: `$STRATUS_THEMES`, `./themes`, `PREFIX/share/stratus/themes` beside an
/// installed `PREFIX/bin/stratus`, or the `themes` folder of the checkout the binary was built in
/// (found by walking up from the executable, which `/proc/self/exe` names however it was started).
enum ThemeDirectory {
    static func find(environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let explicit = environment["STRATUS_THEMES"], !explicit.isEmpty { candidates.append(explicit) }
        candidates.append(FileManager.default.currentDirectoryPath + "/themes")
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(directory.deletingLastPathComponent().appendingPathComponent("share/stratus/themes").path)
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("themes").path)
            directory.deleteLastPathComponent()
        }
        candidates += ["/usr/local/share/stratus/themes", "/usr/share/stratus/themes"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/default.json") }
    }
}

/// Copies text with OSC 52, which terminals (and tmux, wrapped) put on the clipboard, also
/// over SSH.
enum Clipboard {
    static func copy(_ text: String, environment: [String: String]) {
        FileHandle.standardOutput.write(Data(OSC52.sequence(copying: text, insideTmux: environment["TMUX"] != nil).utf8))
    }
}
