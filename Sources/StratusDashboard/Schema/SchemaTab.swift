import Foundation
import StratusEngine
import StratusModel

/// The Schema tab: record types, fields and indexes, roles and grants; export to `.ckdb`, a
/// diff with another schema, edits of a development schema and imports.
enum SchemaTab {
    static func action(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .open where state.schemaTab.diff != nil:
            return []
        case .open:
            let lines = SchemaLines.lines(state)
            guard lines.indices.contains(state.schemaTab.list.selected) else { return [] }
            let line = lines[state.schemaTab.list.selected]
            guard line.kind != .role, line.kind != .rolesHeading else {
                state.status = StatusMessage("Roles are not record types; grants name them (x exports the schema).")
                return []
            }
            let type = line.recordType
            guard type != "Users" else {
                state.status = StatusMessage("Users records cannot be queried (CloudKit's rule).", kind: .error)
                return []
            }
            state.tab = .query
            return QueryTab.chooseRecordType(&state, type)
        case .run:
            let job = state.startJob(.schema, "schema")
            return [.schema(.load(job: job))]
        case .diffSchema:
            if state.schemaTab.diff != nil {
                state.schemaTab.diff = nil
                state.schemaTab.list = ListCursor()
                return []
            }
            state.modals.append(.textInput(TextInputState(purpose: SchemaFileEntry.diff, title: "Compare the schema with",
                                                          hint: "a .ckdb file or another store (say production's)",
                                                          text: defaultSchemaExportPath(state))))
            return []
        case .export:
            state.modals.append(.textInput(TextInputState(purpose: SchemaFileEntry.export, title: "Export the schema to",
                                                          hint: "a file path; cktool's .ckdb text (roles, types, grants)",
                                                          text: defaultSchemaExportPath(state))))
            return []
        case .create, .addField, .editIndexes:
            return startEdit(&state, action)
        case .importSchema:
            if let refusal = editRefusal(state, importing: true) {
                state.status = StatusMessage(refusal, kind: .error)
                return []
            }
            state.modals.append(.textInput(TextInputState(purpose: SchemaFileEntry.importFile, title: "Import the schema from",
                                                          hint: "a .ckdb file: the store's schema becomes what it declares",
                                                          text: defaultSchemaExportPath(state))))
            return []
        default:
            return []
        }
    }

    /// Why a production store takes no edit.
    static let productionRefusal = "This is a production store: CloudKit changes a production schema only by deploying one (i imports a .ckdb, as deploying does)."

    /// Why the schema cannot be changed here, if it cannot.
    static func editRefusal(_ state: DashboardState, importing: Bool = false) -> String? {
        if state.storeIsReadOnly { return "The store is read-only: its schema cannot change." }
        if state.schemaTab.diff != nil { return "This is the schema diff; v goes back to the schema." }
        if !importing, state.environment == .production { return productionRefusal }
        return nil
    }

    /// `n` (a record type), `a` (a field of the selected type), `I` (an index of the selected field).
    static func startEdit(_ state: inout DashboardState, _ action: KeyAction) -> [Effect] {
        if let refusal = editRefusal(state) {
            state.status = StatusMessage(refusal, kind: .error)
            return []
        }
        if action == .create {
            state.modals.append(.textInput(TextInputState(purpose: SchemaNameEntry.recordType, title: "New record type",
                                                          hint: "letters, digits and '_', starting with a letter")))
            return []
        }
        let lines = SchemaLines.lines(state)
        guard lines.indices.contains(state.schemaTab.list.selected),
              let schema = state.schema(named: lines[state.schemaTab.list.selected].recordType) else {
            state.status = StatusMessage("Select a record type first.", kind: .error)
            return []
        }
        let line = lines[state.schemaTab.list.selected]
        if action == .addField {
            state.modals.append(.textInput(TextInputState(purpose: SchemaNameEntry.field(recordType: schema.name), title: "New field of \(schema.name)",
                                                          hint: "letters, digits and '_', starting with a letter; then its type")))
            return []
        }
        if line.kind == .systemField, let key = line.field, let system = SystemField(key: key) {
            let indexes = schema.systemIndexes[system] ?? []
            state.modals.append(.picker(PickerState(purpose: SchemaIndexPick(recordType: schema.name, field: system.rawValue, indexes: indexes),
                                                    title: "Indexes of \(schema.name).\(key) (\(system.type), system)",
                                                    items: SchemaIndexPick.items(type: DeclaredFieldType(system.type), indexes: indexes))))
            return []
        }
        guard line.kind == .field, let name = line.field, let field = schema.fields[name] else {
            state.status = StatusMessage("Select a field of \(schema.name) to change its indexes.", kind: .error)
            return []
        }
        let type = DeclaredFieldType(field.type)
        state.modals.append(.picker(PickerState(purpose: SchemaIndexPick(recordType: schema.name, field: name, indexes: field.indexes),
                                                title: "Indexes of \(schema.name).\(name) (\(field.type))",
                                                items: SchemaIndexPick.items(type: type, indexes: field.indexes))))
        return []
    }

    /// Starts `change`; the tab reloads once it is made, with the cursor on what it changed.
    static func edit(_ state: inout DashboardState, _ change: SchemaChange) -> Effect {
        state.schemaTab.select = change.line
        return .schema(.change(job: state.startJob(.schema, "change the schema"), change))
    }

    /// Puts the cursor on the line an edit asked for, once the schema holding it is loaded.
    static func selectEdited(_ state: inout DashboardState) {
        guard let wanted = state.schemaTab.select else { return }
        state.schemaTab.select = nil
        let lines = SchemaLines.lines(state)
        guard let index = lines.firstIndex(where: { $0.recordType == wanted.recordType && $0.field == wanted.field && $0.kind != .grant }) else { return }
        state.schemaTab.list.move(to: index, count: lines.count, visible: Layout.schemaRows(state.size))
    }

    /// The schema, loaded when the dashboard starts and on demand; a diff against a file or
    /// another store; an export.
    static func receive(_ state: inout DashboardState, _ message: SchemaMessage) -> [Effect] {
        switch message {
        case .loaded(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let snapshot):
                state.recordTypes = snapshot.types
                state.schemaTab.roles = snapshot.roles
                state.schemaTab.grants = snapshot.grants
                state.environment = snapshot.environment
                state.storeIsReadOnly = snapshot.isReadOnly
                state.schemaLoaded = true
                selectEdited(&state)
                // Without a record type, the zone's counts choose it (see recordCountsLoaded).
                if state.query.recordType == nil, state.query.recordCountsJob != nil { return [] }
                let pickable = state.pickableTypes
                if state.query.recordType == nil || state.schema(named: state.query.recordType!) == nil && !pickable.isEmpty {
                    let previous = state.query.recordType
                    state.query.recordType = pickable.first?.name
                    if state.query.recordType != previous || !state.query.hasRun { return QueryTab.runQuery(&state) }
                }
                if !state.query.hasRun, state.query.recordType != nil { return QueryTab.runQuery(&state) }
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .diffed(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let diff):
                state.schemaTab.diff = diff
                state.schemaTab.list = ListCursor()
                let refused = diff.changes.filter { $0.deployRefusal != nil }.count
                state.status = StatusMessage(diff.changes.isEmpty ? "The schemas are the same." : "\(diff.changes.count) changes; \(refused) refused in production. v goes back to the schema.",
                                             kind: refused == 0 ? .success : .error)
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .changed(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let text):
                state.status = StatusMessage(text, kind: .success)
                return [.schema(.load(job: state.startJob(.schema, "schema")))]
            case .failure(let error):
                state.schemaTab.select = nil
                state.status = .error(error)
                return []
            }

        case .previewed(let job, let path, let result):
            state.endJob(job)
            switch result {
            case .success(let changes):
                let name = (path as NSString).lastPathComponent
                guard !changes.isEmpty else {
                    state.status = StatusMessage("\(name) declares the schema this production store already has: nothing to deploy.")
                    return []
                }
                state.modals.append(.confirm(ConfirmState(
                    title: "Deploy to production",
                    message: "Deploy \(name) to this production store? " + changes.joined(separator: "; ") + ". "
                        + "Records saved from now on are held to it. y deploys, n leaves the schema as it is.",
                    action: SchemaDeployment(path: path))))
            case .failure(let error):
                state.status = .error(error)
            }
            return []

        case .exported(let job, let result):
            state.endJob(job)
            switch result {
            case .success(let path): state.status = StatusMessage("Exported the schema to \(path).", kind: .success)
            case .failure(let error): state.status = .error(error)
            }
            return []
        }
    }

    /// Where the schema is exported unless told otherwise: beside the store, as `.ckdb`.
    static func defaultSchemaExportPath(_ state: DashboardState) -> String {
        let path = state.storePath as NSString
        return path.deletingPathExtension + ".ckdb"
    }
}
