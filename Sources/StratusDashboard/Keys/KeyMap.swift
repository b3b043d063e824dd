import StratusTerminal
import StratusCloud

/// Where a key binding applies. A view is a list of contexts, most specific first; the first
/// binding found for a key wins.
enum KeyContext: String, CaseIterable, Hashable, Sendable {
    case global, list, query, fetch, changes, databaseChanges, zones, schema, subscriptions, notifications, inspector
    case filterEditor, filterBuilder, filterText, filterArguments, picker, multiPicker, textInput, form, confirm, conflict, help, commandLine
    case subscriptionDraft, sharing, logs, faults, histogram, requestBodies

    /// The heading of the context's section in the help overlay.
    var title: String {
        switch self {
        case .global: return "Everywhere"
        case .list: return "Lists"
        case .query: return "Query tab"
        case .fetch: return "Fetch tab"
        case .changes: return "Changes tab (zone changes)"
        case .databaseChanges: return "Changes tab (database changes)"
        case .zones: return "Zones tab"
        case .schema: return "Schema tab"
        case .subscriptions: return "Subscriptions tab (subscriptions)"
        case .notifications: return "Subscriptions tab (notifications)"
        case .subscriptionDraft: return "New subscription"
        case .sharing: return "Sharing tab"
        case .logs: return "Logs tab"
        case .faults: return "Faults tab"
        case .histogram: return "Histogram"
        case .requestBodies: return "Request and response"
        case .inspector: return "Inspector"
        case .filterEditor: return "Filter editor"
        case .filterBuilder: return "Filter builder"
        case .filterText: return "Filter text"
        case .filterArguments: return "Filter arguments"
        case .picker, .multiPicker: return "Picker"
        case .textInput: return "Text input"
        case .form: return "Record form"
        case .confirm: return "Confirmation"
        case .conflict: return "Conflict"
        case .help: return "Help"
        case .commandLine: return "Command line"
        }
    }
}

/// What a key does.
enum KeyAction: Hashable, Sendable {
    case quit, help, commandLine, tab(DashboardTab), nextTab, previousTab, pickZone, pickDatabase, pickUser, interrupt, suspend, toggleLens
    case up, down, pageUp, pageDown, top, bottom, left, right, open, back, search, copy, run
    case recordType, filter, sort, fields, pageSize, create, edit, delete
    case editNames, editToken, currentToken, bookmark, bookmarks, toggleChangesView, changesKeys
    case switchFocus, addCondition, deleteCondition, apply, recentFilters, editCell
    case toggleCheck, checkAll, save, nextField, previousField, yes, no, overwrite, takeServer, cancel, complete
    case export, clear, playbackOrder, diffSchema, compact, exportResult, bulkDelete, undo, redo, histogram, copyRecord, thenSort
    case newShare, permission, acceptShare
    case addField, editIndexes, importSchema
}

/// One row of the key map: keys, where, what, and how the hint bar and help show it.
struct KeyBinding: Hashable, Sendable {
    var keys: [Key]
    var context: KeyContext
    var action: KeyAction
    /// How the keys are written in the hint bar and help (`j/k`, `1-5`).
    var label: String
    var help: String
    /// Whether the hint bar shows it (help always does).
    var hint: Bool
    /// The hint bar's shorter word for it, when `help` is long.
    var short: String?

    init(_ keys: [Key], _ context: KeyContext, _ action: KeyAction, _ label: String, _ help: String, hint: Bool = true,
                short: String? = nil) {
        self.keys = keys
        self.context = context
        self.action = action
        self.label = label
        self.help = help
        self.hint = hint
        self.short = short
    }

    /// What the hint bar writes after the key.
    var hintText: String { short ?? help }
}

/// The one key table: it dispatches keys, draws the hint bar and fills the `?` overlay, so
/// the three cannot disagree.
enum KeyMap {
    static let table: [KeyBinding] = [
        // Everywhere
        KeyBinding([.char("?")], .global, .help, "?", "help: every key of this view"),
        KeyBinding([.char("q")], .global, .quit, "q", "quit"),
        KeyBinding([.char(":")], .global, .commandLine, ":", "command line (:db, :zone, :user, :type …)"),
        KeyBinding([.char("1")], .global, .tab(.query), "1", "Query tab", hint: false),
        KeyBinding([.char("2")], .global, .tab(.fetch), "2", "Fetch tab", hint: false),
        KeyBinding([.char("3")], .global, .tab(.changes), "3", "Changes tab", hint: false),
        KeyBinding([.char("4")], .global, .tab(.zones), "4", "Zones tab", hint: false),
        KeyBinding([.char("5")], .global, .tab(.schema), "5", "Schema tab", hint: false),
        KeyBinding([.char("6")], .global, .tab(.subscriptions), "6", "Subscriptions tab (live notifications)", hint: false),
        KeyBinding([.char("7")], .global, .tab(.sharing), "7", "Sharing tab (shares, participants, accepted shares)", hint: false),
        KeyBinding([.char("8")], .global, .tab(.logs), "8", "Logs tab (requests the server answered, live)", hint: false),
        KeyBinding([.char("9")], .global, .tab(.faults), "9", "Faults tab (the fault plan: failures made on purpose, live)", hint: false),
        KeyBinding([.char("U")], .global, .undo, "U", "undo this session's last save or delete (checks nothing changed since)", hint: false),
        KeyBinding([.char("R")], .global, .redo, "R", "redo what U undid", hint: false),
        KeyBinding([.char("]")], .global, .nextTab, "]", "next tab", hint: false),
        KeyBinding([.char("[")], .global, .previousTab, "[", "previous tab", hint: false),
        KeyBinding([.char("z")], .global, .pickZone, "z", "switch zone"),
        KeyBinding([.char("D")], .global, .pickDatabase, "D", "switch database (public, private, shared)", hint: false),
        KeyBinding([.char("L")], .global, .toggleLens, "L", "Core Data lens: CD_ records as their objects (on in Core Data's zone)", hint: false),
        KeyBinding([.char("A")], .global, .pickUser, "A", "act as another user or none (kept per store); on a remote: its database", hint: false),
        KeyBinding([.escape], .global, .back, "Esc", "cancel the running work, or back", hint: false),
        KeyBinding([.ctrl("c")], .global, .interrupt, "Ctrl-C", "cancel the running work; quit when idle", hint: false),
        KeyBinding([.ctrl("z")], .global, .suspend, "Ctrl-Z", "suspend to the shell (fg comes back)", hint: false),

        // Lists
        KeyBinding([.up, .char("k")], .list, .up, "↑/k", "up", hint: false),
        KeyBinding([.down, .char("j")], .list, .down, "↓/j", "down", hint: false),
        KeyBinding([.pageUp, .ctrl("u")], .list, .pageUp, "PgUp", "page up", hint: false),
        KeyBinding([.pageDown, .ctrl("d"), .char(" ")], .list, .pageDown, "PgDn", "page down (loads the next page near the end)", hint: false),
        KeyBinding([.char("g"), .home], .list, .top, "g", "first row", hint: false),
        KeyBinding([.char("G"), .end], .list, .bottom, "G", "last row", hint: false),
        KeyBinding([.char("/")], .list, .search, "/", "search the loaded rows (again: next match)", hint: false),

        // Query tab
        KeyBinding([.enter], .query, .open, "Enter", "inspect the record", short: "inspect"),
        KeyBinding([.char("t")], .query, .recordType, "t", "record type", short: "type"),
        KeyBinding([.char("f")], .query, .filter, "f", "filter editor", short: "filter"),
        KeyBinding([.char("s")], .query, .sort, "s", "sort (SORTABLE fields)", short: "sort"),
        KeyBinding([.char("S")], .query, .thenSort, "S", "then sort by another field (after the sorts in use), or drop the last", hint: false),
        KeyBinding([.char("c")], .query, .fields, "c", "fields (desired keys)", hint: false),
        KeyBinding([.char("p")], .query, .pageSize, "p", "page size", hint: false),
        KeyBinding([.char("r")], .query, .run, "r", "run again"),
        KeyBinding([.char("n")], .query, .create, "n", "new record", short: "new"),
        KeyBinding([.char("e")], .query, .edit, "e", "edit the record", hint: false),
        KeyBinding([.char("d")], .query, .delete, "d", "delete the record (asks first)", hint: false),
        KeyBinding([.char("y")], .query, .copy, "y", "copy the record name", hint: false),
        KeyBinding([.ctrl("x")], .query, .bulkDelete, "Ctrl-X", "delete every record the filter matches (counts, asks; Esc stops)", hint: false),
        KeyBinding([.char("H")], .query, .histogram, "H", "a field's values over the result, as a histogram", hint: false),
        KeyBinding([.char("X")], .query, .exportResult, "X", "export the whole result to .jsonl or .csv (Esc cancels)", hint: false),
        KeyBinding([.left, .char("h")], .query, .left, "←/h", "scroll columns left", hint: false),
        KeyBinding([.right, .char("l")], .query, .right, "→/l", "scroll columns right", hint: false),

        // Fetch tab
        KeyBinding([.char("i")], .fetch, .editNames, "i", "record names to fetch", short: "names"),
        KeyBinding([.char("c")], .fetch, .fields, "c", "fields (desired keys)", short: "fields"),
        KeyBinding([.char("r")], .fetch, .run, "r", "fetch"),
        KeyBinding([.enter], .fetch, .open, "Enter", "inspect"),
        KeyBinding([.char("y")], .fetch, .copy, "y", "copy the record name", hint: false),
        KeyBinding([.char("X")], .fetch, .exportResult, "X", "export the fetched records to .jsonl or .csv", hint: false),

        // Changes tab
        KeyBinding([.char("r")], .changes, .run, "r", "play back changes", short: "play back"),
        KeyBinding([.char("i")], .changes, .editToken, "i", "start token (empty: the beginning)", short: "since"),
        KeyBinding([.char("t")], .changes, .currentToken, "t", "current token, no playback", short: "current token"),
        KeyBinding([.char("y")], .changes, .copy, "y", "copy the token", short: "copy"),
        KeyBinding([.char("m")], .changes, .bookmark, "m", "bookmark the token", hint: false),
        KeyBinding([.char("b")], .changes, .bookmarks, "b", "start from a bookmark", hint: false),
        KeyBinding([.char("c")], .changes, .changesKeys, "c", "desired keys: all, none, or chosen", hint: false),
        KeyBinding([.char("p")], .changes, .pageSize, "p", "page size", hint: false),
        KeyBinding([.char("X")], .changes, .exportResult, "X", "export the playback to .jsonl or .csv", hint: false),
        KeyBinding([.char("K")], .changes, .compact, "K", "compact the zone's history (older tokens expire), after asking", hint: false),
        KeyBinding([.char("o")], .changes, .playbackOrder, "o", "order within a page: as logged, parents first, children first, shuffled", hint: false),
        KeyBinding([.char("v")], .changes, .toggleChangesView, "v", "database changes view", short: "db changes"),
        KeyBinding([.enter], .changes, .open, "Enter", "inspect the record", hint: false),

        KeyBinding([.char("r")], .databaseChanges, .run, "r", "list zones changed since the token", short: "run"),
        KeyBinding([.char("i")], .databaseChanges, .editToken, "i", "database token (empty: ever)", short: "since"),
        KeyBinding([.char("t")], .databaseChanges, .currentToken, "t", "current database token", short: "current token"),
        KeyBinding([.char("y")], .databaseChanges, .copy, "y", "copy the token", short: "copy"),
        KeyBinding([.char("v")], .databaseChanges, .toggleChangesView, "v", "zone changes view", short: "zone changes"),
        KeyBinding([.enter], .databaseChanges, .open, "Enter", "play back that zone", hint: false),

        // Zones and Schema
        KeyBinding([.enter], .zones, .open, "Enter", "use this zone"),
        KeyBinding([.char("n")], .zones, .create, "n", "new zone (private database)", short: "new zone"),
        KeyBinding([.char("d")], .zones, .delete, "d", "delete the zone and its records (asks first)", short: "delete"),
        KeyBinding([.char("r")], .zones, .run, "r", "refresh"),
        KeyBinding([.char("y")], .zones, .copy, "y", "copy the zone's token", short: "copy token"),
        KeyBinding([.enter], .schema, .open, "Enter", "query this record type", short: "query it"),
        KeyBinding([.char("r")], .schema, .run, "r", "refresh"),
        KeyBinding([.char("x")], .schema, .export, "x", "export the schema (.ckdb) to a file", short: "export"),
        KeyBinding([.char("v")], .schema, .diffSchema, "v", "compare with a .ckdb file: what deploying this store over it changes (v again: the schema)", short: "diff"),
        KeyBinding([.char("a")], .schema, .addField, "a", "add a field to the selected record type (development store)", short: "add field"),
        KeyBinding([.char("I")], .schema, .editIndexes, "I", "add or remove an index of the selected field (development store)", short: "index"),
        KeyBinding([.char("n")], .schema, .create, "n", "new record type (development store)", hint: false),
        KeyBinding([.char("i")], .schema, .importSchema, "i", "import a .ckdb file: the schema becomes what it declares", hint: false),

        // Logs tab
        KeyBinding([.enter], .logs, .open, "Enter", "the request and the response (kept for the newest requests, credentials masked)",
                   short: "bodies"),
        KeyBinding([.char("y")], .logs, .copy, "y", "copy the request's line", short: "copy"),
        KeyBinding([.char("x")], .logs, .clear, "x", "clear the list", short: "clear"),
        KeyBinding([.char("r")], .logs, .run, "r", "follow the log again after an error", hint: false),
        // Histogram
        KeyBinding([.enter], .histogram, .apply, "Enter", "filter the query to the bar's records (adds to the filter in use)", short: "filter to bar"),
        KeyBinding([.escape, .char("q")], .histogram, .back, "Esc", "close", short: "close"),
        KeyBinding([.up, .char("k")], .requestBodies, .up, "↑/k", "scroll up", hint: false),
        KeyBinding([.down, .char("j")], .requestBodies, .down, "↓/j", "scroll down", hint: false),
        KeyBinding([.pageUp, .ctrl("u")], .requestBodies, .pageUp, "PgUp", "page up", hint: false),
        KeyBinding([.pageDown, .ctrl("d"), .char(" ")], .requestBodies, .pageDown, "PgDn", "page down", short: "scroll"),
        KeyBinding([.char("g"), .home], .requestBodies, .top, "g", "the request", hint: false),
        KeyBinding([.char("G"), .end], .requestBodies, .bottom, "G", "the end of the response", hint: false),
        KeyBinding([.char("y")], .requestBodies, .copy, "y", "copy the response body", short: "copy response"),
        KeyBinding([.char("Y")], .requestBodies, .copyRecord, "Y", "copy the request body", short: "copy request"),
        KeyBinding([.escape, .char("q")], .requestBodies, .back, "Esc", "close", short: "close"),
        // Faults tab
        KeyBinding([.char("a")], .faults, .create, "a", "add a fault: a kind, then its options", short: "add"),
        KeyBinding([.char("d")], .faults, .delete, "d", "remove the fault, after asking", short: "remove"),
        KeyBinding([.char("x")], .faults, .clear, "x", "clear the whole plan, after asking", short: "clear"),
        KeyBinding([.char("y")], .faults, .copy, "y", "copy the fault's line", hint: false),
        KeyBinding([.char("r")], .faults, .run, "r", "follow the plan again after an error", hint: false),

        // Sharing tab
        KeyBinding([.char("n")], .sharing, .newShare, "n", "share the zone, or the record selected in the Query tab", short: "share"),
        KeyBinding([.char("a")], .sharing, .create, "a", "invite a user to the share", short: "invite"),
        KeyBinding([.char("p")], .sharing, .permission, "p", "change the participant's permission, or the share's public permission",
                   short: "permission"),
        KeyBinding([.char("J")], .sharing, .acceptShare, "J", "join: accept a share by its URL, as the user you act as", short: "join"),
        KeyBinding([.char("d")], .sharing, .delete, "d", "remove the participant (asks first)", short: "remove"),
        KeyBinding([.char("y")], .sharing, .copy, "y", "copy the share's URL", short: "copy URL"),
        KeyBinding([.enter], .sharing, .open, "Enter", "open the shared zone", short: "open zone"),
        KeyBinding([.char("r")], .sharing, .run, "r", "refresh"),

        // Subscriptions tab
        KeyBinding([.char("n")], .subscriptions, .create, "n", "new subscription", short: "new"),
        KeyBinding([.char("d")], .subscriptions, .delete, "d", "delete the subscription (asks first)", short: "delete"),
        KeyBinding([.tab], .subscriptions, .switchFocus, "Tab", "notifications panel", short: "notifications"),
        KeyBinding([.char("r")], .subscriptions, .run, "r", "refresh"),
        KeyBinding([.char("y")], .subscriptions, .copy, "y", "copy the subscription ID", hint: false),
        KeyBinding([.enter], .notifications, .open, "Enter", "open the notification's record", short: "open record"),
        KeyBinding([.tab], .notifications, .switchFocus, "Tab", "subscriptions list", short: "subscriptions"),
        KeyBinding([.char("x")], .notifications, .clear, "x", "clear the panel", short: "clear"),
        KeyBinding([.char("y")], .notifications, .copy, "y", "copy the record name", hint: false),

        // Inspector
        KeyBinding([.enter], .inspector, .open, "Enter", "open the referenced record", short: "follow reference"),
        KeyBinding([.char("e")], .inspector, .edit, "e", "edit"),
        KeyBinding([.char("d")], .inspector, .delete, "d", "delete (asks first)", short: "delete"),
        KeyBinding([.char("y")], .inspector, .copy, "y", "copy the value", short: "copy"),
        KeyBinding([.escape], .inspector, .back, "Esc", "back"),
        KeyBinding([.char("Y")], .inspector, .copyRecord, "Y", "copy the whole record as Web Services JSON (as records/lookup answers)",
                   short: "copy JSON"),

        // Filter editor
        KeyBinding([.tab], .filterEditor, .switchFocus, "Tab", "next pane: builder → text → arguments", short: "next pane"),
        KeyBinding([.backTab], .filterEditor, .previousField, "Shift-Tab", "previous pane", hint: false),
        KeyBinding([.ctrl("s")], .filterEditor, .apply, "Ctrl-S", "apply and run", short: "apply"),
        KeyBinding([.ctrl("r")], .filterEditor, .recentFilters, "Ctrl-R", "recent filters", short: "recent"),
        KeyBinding([.ctrl("y")], .filterEditor, .copy, "Ctrl-Y", "copy the query as a Web Services client sends it (filterBy JSON)", hint: false),
        KeyBinding([.escape], .filterEditor, .back, "Esc", "close without applying", short: "close"),
        KeyBinding([.up, .char("k")], .filterBuilder, .up, "↑↓", "condition", hint: false),
        KeyBinding([.down, .char("j")], .filterBuilder, .down, "↓", "next condition", hint: false),
        KeyBinding([.left, .char("h")], .filterBuilder, .left, "←→", "field / operator / value", hint: false),
        KeyBinding([.right, .char("l")], .filterBuilder, .right, "→", "next cell", hint: false),
        KeyBinding([.enter], .filterBuilder, .editCell, "Enter", "change the cell", short: "change cell"),
        KeyBinding([.char("a")], .filterBuilder, .addCondition, "a", "add a condition", short: "add"),
        KeyBinding([.char("d"), .delete], .filterBuilder, .deleteCondition, "d", "remove the condition", short: "remove"),
        KeyBinding([.enter], .filterText, .apply, "Enter", "apply and run", short: "apply"),
        KeyBinding([.enter], .filterArguments, .apply, "Enter", "apply and run", short: "apply"),
        KeyBinding([.up], .filterArguments, .up, "↑↓", "argument", hint: false),
        KeyBinding([.down], .filterArguments, .down, "↓", "next argument", hint: false),

        // Dialogs
        KeyBinding([.up, .char("k")], .picker, .up, "↑↓", "move", hint: false),
        KeyBinding([.down, .char("j")], .picker, .down, "↓", "move", hint: false),
        KeyBinding([.pageUp], .picker, .pageUp, "PgUp", "page up", hint: false),
        KeyBinding([.pageDown], .picker, .pageDown, "PgDn", "page down", hint: false),
        KeyBinding([.enter], .picker, .open, "Enter", "choose"),
        KeyBinding([.char(" ")], .multiPicker, .toggleCheck, "Space", "check / uncheck"),
        KeyBinding([.char("a")], .multiPicker, .checkAll, "a", "check all / none"),
        KeyBinding([.escape], .picker, .back, "Esc", "cancel"),
        KeyBinding([.enter], .textInput, .open, "Enter", "accept"),
        KeyBinding([.escape], .textInput, .back, "Esc", "cancel"),
        KeyBinding([.up, .backTab], .form, .previousField, "↑", "previous field", hint: false),
        KeyBinding([.down, .tab, .enter], .form, .nextField, "↓/Tab/Enter", "next field", short: "next"),
        KeyBinding([.ctrl("s")], .form, .save, "Ctrl-S", "save"),
        KeyBinding([.escape], .form, .back, "Esc", "cancel"),
        KeyBinding([.up, .char("k"), .backTab], .subscriptionDraft, .previousField, "↑", "previous row", hint: false),
        KeyBinding([.down, .char("j"), .tab], .subscriptionDraft, .nextField, "↓", "next row", hint: false),
        KeyBinding([.enter, .char(" ")], .subscriptionDraft, .editCell, "Enter", "change the row", short: "change"),
        KeyBinding([.ctrl("s")], .subscriptionDraft, .save, "Ctrl-S", "save the subscription", short: "save"),
        KeyBinding([.escape], .subscriptionDraft, .back, "Esc", "cancel"),
        KeyBinding([.char("y"), .char("Y")], .confirm, .yes, "y", "yes"),
        KeyBinding([.char("n"), .char("N"), .escape], .confirm, .no, "n/Esc", "no"),
        KeyBinding([.char("o")], .conflict, .overwrite, "o", "overwrite the server's record with yours (all keys)", short: "overwrite"),
        KeyBinding([.char("s")], .conflict, .takeServer, "s", "take the server's record", short: "take server's"),
        KeyBinding([.char("c"), .escape], .conflict, .cancel, "c/Esc", "back to your edit", short: "back"),
        KeyBinding([.up, .char("k")], .conflict, .up, "↑↓", "scroll", hint: false),
        KeyBinding([.down, .char("j")], .conflict, .down, "↓", "scroll", hint: false),
        KeyBinding([.up, .char("k")], .help, .up, "↑↓", "scroll"),
        KeyBinding([.down, .char("j")], .help, .down, "↓", "scroll", hint: false),
        KeyBinding([.pageUp], .help, .pageUp, "PgUp", "page up", hint: false),
        KeyBinding([.pageDown, .char(" ")], .help, .pageDown, "PgDn", "page down", hint: false),
        KeyBinding([.escape, .char("?"), .char("q")], .help, .back, "Esc", "close"),
        KeyBinding([.enter], .commandLine, .open, "Enter", "run"),
        KeyBinding([.tab], .commandLine, .complete, "Tab", "complete"),
        KeyBinding([.escape], .commandLine, .back, "Esc", "cancel"),
    ]

    /// The action of `key` in a view made of `contexts`.
    static func action(for key: Key, in contexts: [KeyContext]) -> KeyAction? {
        for context in contexts {
            if let binding = table.first(where: { $0.context == context && $0.keys.contains(key) }) {
                return binding.action
            }
        }
        return nil
    }

    /// Bindings of a view, in context order, each action once (the first context wins).
    static func bindings(in contexts: [KeyContext]) -> [KeyBinding] {
        var seenKeys = Set<Key>()
        var result: [KeyBinding] = []
        for context in contexts {
            for binding in table where binding.context == context {
                let fresh = binding.keys.filter { !seenKeys.contains($0) }
                guard !fresh.isEmpty else { continue }
                seenKeys.formUnion(binding.keys)
                result.append(binding)
            }
        }
        return result
    }

    /// The hint bar's entries, most specific first.
    static func hints(in contexts: [KeyContext]) -> [KeyBinding] {
        bindings(in: contexts).filter(\.hint)
    }
}
