import Foundation
import StratusCloud
import StratusTerminal

extension Dashboard {
    /// The `:` line's commands, completed with Tab.
    static let commands = ["db", "zone", "user", "type", "theme", "tab", "q", "quit", "help"]

    static func commandLineKey(_ state: inout DashboardState, _ line: CommandLineState, key: Key, action: KeyAction?) -> [Effect] {
        var line = line
        switch action {
        case .back?:
            state.topModal = nil
            return []
        case .open?:
            state.topModal = nil
            return runCommand(&state, line.field.text)
        case .complete?:
            if let index = line.completionIndex, !line.completions.isEmpty {
                let next = (index + 1) % line.completions.count
                line.completionIndex = next
                line.field.set(replaceLastWord(line.field.text, with: line.completions[next]))
            } else {
                line.completions = completions(state, for: line.field.text)
                if let first = line.completions.first {
                    line.completionIndex = 0
                    line.field.set(replaceLastWord(line.field.text, with: first) + (line.completions.count == 1 ? " " : ""))
                    if line.completions.count == 1 { line.completions = []; line.completionIndex = nil }
                }
            }
        default:
            line.field.handle(key)
            line.completions = completions(state, for: line.field.text)
            line.completionIndex = nil
        }
        state.topModal = .commandLine(line)
        return []
    }

    static func replaceLastWord(_ text: String, with word: String) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.isEmpty { return word }
        words[words.count - 1] = word
        return words.joined(separator: " ")
    }

    /// Candidates for the word being typed: a command, then its argument (zone, database,
    /// record type or theme names).
    static func completions(_ state: DashboardState, for text: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let last = words.last ?? ""
        let candidates: [String]
        if words.count <= 1 {
            candidates = commands
        } else {
            switch words[0] {
            case "db": candidates = DatabaseScope.allCases.map(\.name)
            case "zone": candidates = state.zones.map(\.zoneID.zoneName)
            case "user": candidates = state.users.map(\.alias) + ["none"]
            case "type": candidates = state.pickableTypes.map(\.name)
            case "theme": candidates = state.themeNames
            case "tab": candidates = DashboardTab.allCases.map { $0.title.lowercased() }
            default: candidates = []
            }
        }
        return candidates.filter { $0.lowercased().hasPrefix(last.lowercased()) && $0 != last }
    }

    static func runCommand(_ state: inout DashboardState, _ text: String) -> [Effect] {
        let words = text.split(separator: " ").map(String.init)
        guard let command = words.first else { return [] }
        let argument = words.dropFirst().joined(separator: " ")
        switch command {
        case "q", "quit", "exit":
            state.wantsQuit = true
            return cancelAll(&state)
        case "help":
            state.modals.append(.help(HelpState(contexts: contexts(state), title: helpTitle(state))))
            return []
        case "db", "database":
            guard let scope = DatabaseScope(name: argument) else {
                state.status = StatusMessage(":db takes public, private or shared", kind: .error)
                return []
            }
            return switchScope(&state, to: scope)
        case "zone":
            guard !argument.isEmpty else {
                openZonePicker(&state)
                return []
            }
            guard state.zones.isEmpty || state.zones.contains(where: { $0.zoneID.zoneName == argument }) else {
                state.status = StatusMessage("No zone \(argument) in the \(state.scope.name) database (zones: \(state.zones.map(\.zoneID.zoneName).joined(separator: ", "))).", kind: .error)
                return []
            }
            return switchZone(&state, to: argument)
        case "user":
            guard !argument.isEmpty else { return openUserPicker(&state) }
            return actAs(&state, named: argument)
        case "type":
            guard state.remote != nil && !argument.isEmpty || state.pickableTypes.contains(where: { $0.name == argument }) else {
                state.status = StatusMessage("No record type \(argument).", kind: .error)
                return []
            }
            state.tab = .query
            return QueryTab.chooseRecordType(&state, argument)
        case "theme":
            guard !argument.isEmpty else {
                let items = state.themeNames.map { PickerItem(label: $0, detail: $0 == state.theme.name ? "current" : "") }
                state.modals.append(.picker(PickerState(purpose: AppPick.theme, title: "Theme", items: items)))
                return []
            }
            return [.loadTheme(argument)]
        case "tab":
            guard let tab = DashboardTab.allCases.first(where: { $0.title.lowercased() == argument.lowercased() || "\($0.rawValue)" == argument }) else {
                state.status = StatusMessage(":tab takes query, fetch, changes, zones, schema or subscriptions", kind: .error)
                return []
            }
            state.modals.removeAll()
            state.tab = tab
            return Dashboard.enteredTab(&state)
        default:
            state.status = StatusMessage("Unknown command :\(command) (try :db, :zone, :user, :type, :theme, :tab, :q).", kind: .error)
            return []
        }
    }
}
