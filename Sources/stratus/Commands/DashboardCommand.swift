import ArgumentParser
import Foundation
import StratusDashboard
import StratusEngine
import StratusPredicates
import StratusTerminal

struct DashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "The terminal dashboard: Query, Fetch and Changes tabs, zones and schema (the default subcommand).",
        discussion: """
            Keys: ? shows every key of the view; 1-5 switch tabs; q quits. Needs an interactive terminal \
            (TERM set and not dumb); exits 2 otherwise.
            Themes are JSON files named NAME.json, looked for in $STRATUS_THEMES, ./themes, then the themes \
            folder of the Stratus checkout that built the binary. NO_COLOR turns colours off.
            Recent filters and change-token bookmarks are kept in STORE.dashboard.json next to the store.
            """
    )

    @Option(help: "The store file (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "The theme: a NAME.json in the themes folder (default, light, high-contrast, mono).") var theme: String = "default"
    @Option(help: "The database: public, private or shared.") var db: String = "private"
    @Option(help: "The zone.") var zone: String = ZoneID.defaultZoneName
    @Option(help: "The record type the Query tab starts with (default: the first).") var type: String?
    @Option(help: "The user record name that acts (default: the store's owner).") var user: String?

    func run() throws {
        guard let scope = DatabaseScope(name: db) else {
            throw CommandFailure.usage("--db must be public, private or shared, not '\(db)'")
        }
        try DashboardLauncher.run(DashboardLauncher.Options(
            storePath: store ?? StoreLocation.defaultPath, scope: scope, zone: zone, recordType: type, theme: theme, user: user))
    }
}

/// Opens the dashboard on a store: checks the terminal, loads the theme and preferences, and
/// runs the event loop until the user quits.
enum DashboardLauncher {
    struct Options {
        var storePath: String
        var scope: DatabaseScope = .private
        var zone: String = ZoneID.defaultZoneName
        var recordType: String?
        var theme: String = "default"
        var user: String?
    }

    static func run(_ options: Options, store opened: Store? = nil) throws {
        let environment = ProcessInfo.processInfo.environment
        if let failure = TerminalCheck.check(environment: environment) {
            throw CommandFailure(message: "error: \(failure.message)", exitCode: failure.exitCode)
        }
        let store = try opened ?? Store(path: options.storePath)
        let themesDirectory = ThemeDirectory.find(environment: environment)
        let loader = themesDirectory.map { ThemeLoader(directory: $0) }
        let preferencesPath = PreferencesFile.path(forStore: options.storePath)

        var state = DashboardState(storePath: options.storePath, scope: options.scope, zone: ZoneID(zoneName: options.zone),
                                   recordType: options.recordType)
        state.preferences = PreferencesFile.load(from: preferencesPath)
        state.themeNames = loader?.availableThemes() ?? []
        if let loader {
            let (theme, error) = loader.loadOrDefault(named: options.theme)
            state.theme = theme
            if let error { state.status = StatusMessage("Theme not loaded: \(error.description); using the default.", kind: .error) }
        } else if options.theme != "default" {
            state.status = StatusMessage("No themes folder found (set STRATUS_THEMES); using the default theme.", kind: .error)
        }

        let services = DashboardServices(
            store: store, queryRunner: EngineQueryRunner(store: store, user: options.user), themeLoader: loader,
            clipboard: { Clipboard.copy($0, environment: environment) }, preferencesPath: preferencesPath, user: options.user)
        let mailbox = Mailbox<DashboardMessage>()
        let backend = NcursesBackend(environment: environment)
        try backend.setUp()
        state.size = backend.size
        var app = DashboardApp(state: state, runner: EffectRunner(services: services), mailbox: mailbox,
                               tracePath: environment["STRATUS_DASHBOARD_TRACE"])
        app.start()
        let loop = EventLoop(app: app, backend: backend, mailbox: mailbox, tickInterval: .milliseconds(150))
        try loop.run()
    }
}

/// Where theme files are: `$STRATUS_THEMES`, `./themes`, or the `themes` folder of the checkout
/// the binary was built in (found by walking up from the executable).
enum ThemeDirectory {
    static func find(environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let explicit = environment["STRATUS_THEMES"], !explicit.isEmpty { candidates.append(explicit) }
        candidates.append(FileManager.default.currentDirectoryPath + "/themes")
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
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
        let encoded = Data(text.utf8).base64EncodedString()
        var sequence = "\u{1B}]52;c;\(encoded)\u{07}"
        if environment["TMUX"] != nil {
            sequence = "\u{1B}Ptmux;\u{1B}" + sequence + "\u{1B}\\"
        }
        FileHandle.standardOutput.write(Data(sequence.utf8))
    }
}

/// The dashboard's ``QueryRunner`` over the engine's query API
/// (`records(matching:inZoneWith:desiredKeys:resultsLimit:)`, `records(continuingMatchFrom:)`,
/// `analyze`).
struct EngineQueryRunner: QueryRunner {
    let store: Store
    let user: String?

    func run(_ request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryPage {
        let page = try store.database(scope, user: user).records(
            matching: try query(request), inZoneWith: zone, desiredKeys: request.desiredKeys, resultsLimit: request.resultsLimit)
        return QueryPage(records: page.records, cursor: page.cursor)
    }

    func next(cursor: String, request: QueryRequest, zone: ZoneID, scope: DatabaseScope) throws -> QueryPage {
        let page = try store.database(scope, user: user).records(
            continuingMatchFrom: cursor, desiredKeys: request.desiredKeys, resultsLimit: request.resultsLimit)
        return QueryPage(records: page.records, cursor: page.cursor)
    }

    func check(filter: String, arguments: [String], recordType: String) -> FilterCheck {
        let parsed: [PredicateArgument]
        do {
            parsed = try arguments.map { text throws(PredicateArgumentError) in try PredicateArgument(parsing: text) }
        } catch {
            return .invalid(error.message, offset: nil, length: 0)
        }
        let query = Query(recordType: recordType, predicateFormat: filter, arguments: parsed)
        let analysis: PredicateAnalysis
        do {
            analysis = try store.database(.private, user: user).analyze(query)
        } catch {
            return .invalid("\(error)", offset: nil, length: 0)
        }
        guard let compiled = analysis.query else {
            let problems = analysis.diagnostics.map {
                FilterProblem(message: $0.message, offset: $0.range?.offset, length: $0.range?.length ?? 0)
            }
            return FilterCheck(isValid: false, problems: problems.isEmpty
                ? [FilterProblem(message: "CloudKit can't run this predicate.", offset: nil, length: 0)] : problems)
        }
        return .valid(canonical: analysis.boundCanonical ?? analysis.canonical ?? filter, indexes: Self.indexes(compiled.filter))
    }

    private func query(_ request: QueryRequest) throws -> Query {
        let arguments: [PredicateArgument]
        do {
            arguments = try request.arguments.map { text throws(PredicateArgumentError) in try PredicateArgument(parsing: text) }
        } catch {
            throw CloudKitError(.invalidArguments, error.message)
        }
        let filter = request.filter.trimmingCharacters(in: .whitespaces)
        return Query(recordType: request.recordType, predicateFormat: filter.isEmpty ? "TRUEPREDICATE" : filter,
                     arguments: arguments, sortDescriptors: request.sort.map { QuerySort($0.key, ascending: $0.ascending) })
    }

    /// `field (INDEX)` for each index the filter's terms need.
    static func indexes(_ filter: QueryFilter) -> [String] {
        var uses: [String] = []
        func add(_ key: FieldKey, _ index: String) {
            let name: String
            switch key {
            case .custom(let field, _): name = field
            case .system(let field): name = field.predicateKey
            }
            let entry = "\(name) (\(index))"
            if !uses.contains(entry) { uses.append(entry) }
        }
        for term in filter.terms {
            switch term {
            case .compare(let key, let op, _): add(key, op == .equal || op == .notEqual ? "QUERYABLE" : "SORTABLE")
            case .oneOf(let key, _, _), .listContains(let key, _, _), .listContainsAny(let key, _, _): add(key, "QUERYABLE")
            case .beginsWith(let key, _, _), .between(let key, _, _): add(key, "SORTABLE")
            case .withinDistance(let key, _, _, _): add(key, "QUERYABLE")
            case .tokens(_, _, let fields):
                let entry = (fields.isEmpty ? "text" : fields.joined(separator: ", ")) + " (SEARCHABLE)"
                if !uses.contains(entry) { uses.append(entry) }
            default: break
            }
        }
        return uses
    }
}
