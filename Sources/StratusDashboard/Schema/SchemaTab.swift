import Foundation
import StratusModel

/// The Schema tab: record types, fields and indexes, roles and grants; export to `.ckdb` and
/// a diff with another schema.
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
        default:
            return []
        }
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
