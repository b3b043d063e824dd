import Foundation
import StratusCloud

/// What an export of the current result writes: the Query tab's whole result (every page, not
/// only the loaded ones), the Fetch tab's records, or the Changes tab's playback from its start
/// token.
enum ResultExport: Sendable {
    case query(QueryRequest, zone: ZoneID, scope: DatabaseScope)
    case fetch([Record])
    case changes(zone: ZoneID, scope: DatabaseScope, since: String?, desiredKeys: [String]?)

    /// The file's format, by its extension: `.csv` is CSV (one column per field, typed in the
    /// header), anything else JSON lines in the CloudKit Web Services record shape.
    enum Format: Sendable, Equatable {
        case jsonLines, csv

        init(path: String) {
            self = path.lowercased().hasSuffix(".csv") ? .csv : .jsonLines
        }
    }

    /// Records per page read while exporting a query or a playback.
    static let pageSize = 500

    /// What is wrong with `path` as the file to write (nil: fine).
    static func pathProblem(_ path: String) -> String? {
        let expanded = (path.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        guard !expanded.isEmpty else { return "Give a file to write (.jsonl for JSON lines, .csv for CSV)." }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder), isFolder.boolValue {
            return "\(expanded) is a folder; give a file name in it."
        }
        let folder = (expanded as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue || folder.isEmpty else {
            return "The folder \(folder) does not exist."
        }
        return nil
    }
}

/// What an export wrote.
struct ExportSummary: Sendable, Equatable {
    var path: String
    var records: Int
    var deletions: Int
}
