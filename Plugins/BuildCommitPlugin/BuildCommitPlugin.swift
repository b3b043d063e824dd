import Foundation
import PackagePlugin

/// Stamps the commit the binary was built from into `BuildCommit.swift`, so `stratus --version`
/// names it in a debug build, in CI's clean clone and in an installed binary alike.
///
/// A prebuild command runs before every build; it rewrites the file only when the commit
/// changed, so an unchanged checkout recompiles nothing. Outside a git checkout (a source
/// archive) the commit reads `unknown`.
@main
struct BuildCommitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit")
        let file = output.appending(path: "BuildCommit.swift").path(percentEncoded: false)
        let checkout = context.package.directoryURL.path(percentEncoded: false)
        let script = """
            mkdir -p "$2"
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            printf '/// The commit this binary was built from (written by BuildCommitPlugin).\\n' > "$3.new"
            printf 'enum BuildCommit { static let id = "%s" }\\n' "$commit" >> "$3.new"
            if cmp -s "$3.new" "$3"; then rm "$3.new"; else mv "$3.new" "$3"; fi
            """
        return [
            .prebuildCommand(
                displayName: "Stamping the build's commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "stamp", checkout, output.path(percentEncoded: false), file],
                outputFilesDirectory: output
            ),
        ]
    }
}
