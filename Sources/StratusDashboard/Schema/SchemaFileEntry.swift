import Foundation

/// The file the Schema tab exports the schema to, compares it with, or imports.
enum SchemaFileEntry: TextInputPurpose {
    case export, diff, importFile

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        let path = (text.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        guard !path.isEmpty else { return [] }
        switch self {
        case .export: return [.schema(.export(job: state.startJob(.exportSchema, "export the schema"), path: path))]
        case .diff: return [.schema(.diff(job: state.startJob(.schema, "compare the schema"), path: path))]
        case .importFile where state.environment == .production:
            // Importing into production is deploying: say what it changes, and ask.
            return [.schema(.previewImport(job: state.startJob(.schema, "read the schema to deploy"), path: path))]
        case .importFile: return [.schema(.importFile(job: state.startJob(.schema, "import the schema"), path: path))]
        }
    }
}
