import Foundation
import Testing

/// The dashboard's public surface is what the command line and the bench use to build and
/// drive it; the tabs, messages, effects and dialogs stay internal, free to change.
@Suite struct PublicSurfaceTests {
    static let publicTypes: Set<String> = [
        "DashboardApp", "Message", "DashboardMail", "DashboardState", "DashboardServices", "EffectRunner", "PreferencesFile",
        "DashboardPreferences", "StatusMessage", "Kind", "JobInfo", "ListCursor", "QueryTabState",
        // `stratus dashboard --remote`: the container it opens on, and who counts its throttling down.
        "RemoteContainer", "ThrottleCountdown",
    ]

    @Test func onlyWhatTheCommandLineAndTheBenchUseIsPublic() throws {
        let declaration = #"^\s*public (?:final )?(?:struct|enum|class|protocol|actor|typealias) (\w+)"#
        var found: [String: String] = [:]
        for file in CloudServiceSeamTests.dashboardSources {
            for line in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n") {
                guard let match = line.range(of: declaration, options: .regularExpression) else { continue }
                let words = line[match].split(separator: " ")
                found[String(words.last!)] = file.lastPathComponent
            }
        }
        let extra = Set(found.keys).subtracting(Self.publicTypes)
        #expect(extra.isEmpty, "public beyond what the command line and the bench use: \(extra.sorted().map { "\($0) (\(found[$0]!))" })")
        #expect(Set(found.keys) == Self.publicTypes, "the public types are found (\(found.keys.sorted()))")
        // Public extensions would widen the surface too.
        let extensions = try CloudServiceSeamTests.dashboardSources.filter {
            try String(contentsOf: $0, encoding: .utf8).range(of: #"(?m)^public extension"#, options: .regularExpression) != nil
        }
        #expect(extensions.isEmpty, "public extensions: \(extensions.map(\.lastPathComponent))")
    }
}
