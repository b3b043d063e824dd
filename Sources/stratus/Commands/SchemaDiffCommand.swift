import ArgumentParser
import Foundation
import StratusEngine
import StratusCKWS
import StratusStores

/// `stratus schema diff A B`: what changes from one schema to another, and which changes
/// CloudKit would refuse to deploy to production.
struct SchemaDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two schemas (.ckdb files or stores): what is added, removed and changed.",
        discussion: """
            A and B are each a .ckdb file, a store file, or - for standard input (once). Read the diff as \
            going from A to B, say from the production store to the development one: lines start with \
            + (added), - (removed) or ~ (changed), and a change CloudKit would refuse to deploy to \
            production (a removed type, field or role, a field whose type changes) says so. With --check \
            the command exits 1 when any such change is present, for CI.
            """
    )

    @Argument(help: "The schema to compare from: a .ckdb file, a store, or -.") var old: String
    @Argument(help: "The schema to compare to: a .ckdb file, a store, or -.") var new: String
    @Flag(help: "Exit 1 when CloudKit would refuse to deploy B over A in production.") var check = false
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func validate() throws {
        if old == "-" && new == "-" { throw ValidationError("only one of A and B can be standard input") }
    }

    func run() throws {
        let diff = SchemaDiff(from: try Self.load(old), to: try Self.load(new))
        let refused = diff.refusedInProduction
        if json {
            Output.json(.object([
                ("changes", .array(diff.changes.map(Self.json))),
                ("deployableToProduction", .bool(refused.isEmpty)),
            ]))
        } else if diff.isEmpty {
            Output.line("The schemas are the same.")
        } else {
            for change in diff.changes {
                let refusal = change.deployRefusal.map { "    ✗ refused in production: \($0)" } ?? ""
                Output.line(change.description + refusal)
            }
            let count = diff.changes.count
            Output.line("\(count) change\(count == 1 ? "" : "s"); " + (refused.isEmpty
                ? "CloudKit would deploy all of them to production."
                : "\(refused.count) would be refused when deploying to production."))
        }
        if check && !refused.isEmpty { throw CommandFailure(message: "", exitCode: 1) }
    }

    private static func json(_ change: SchemaDiff.Change) -> JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(change.kind.rawValue))]
        if let type = change.recordType { members.append(("recordType", .string(type))) }
        members.append(("name", .string(change.name)))
        members.append(("before", change.before.map { .string($0) } ?? .null))
        members.append(("after", change.after.map { .string($0) } ?? .null))
        members.append(("deployRefusal", change.deployRefusal.map { .string($0) } ?? .null))
        return .object(members)
    }

    /// A store's schema when `path` is an SQLite file, else the `.ckdb` text it holds. A path that
    /// does not exist is an error: diff never makes a store.
    private static func load(_ path: String) throws -> SchemaDocument {
        if path != "-" {
            guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.usage("\(path) does not exist") }
            let handle = FileHandle(forReadingAtPath: path)
            defer { try? handle?.close() }
            let header = handle.flatMap { try? $0.read(upToCount: 16) } ?? Data()
            if header == Data("SQLite format 3\0".utf8) {
                // Read as it is: comparing must not upgrade or otherwise write either store.
                return try StoreOpener.exportSchema(ofStoreAt: path)
            }
        }
        return try parseSchemaFile(path)
    }
}
