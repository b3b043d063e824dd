import Foundation

/// The file the Schema tab exports the schema to, or compares it with.
enum SchemaFileEntry: TextInputPurpose {
    case export, diff

    func entered(_ text: String, in state: inout DashboardState) -> [Effect] {
        let path = (text.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        guard !path.isEmpty else { return [] }
        switch self {
        case .export: return [.schema(.export(job: state.startJob(.exportSchema, "export the schema"), path: path))]
        case .diff: return [.schema(.diff(job: state.startJob(.schema, "compare the schema"), path: path))]
        }
    }
}
