import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS
import StratusStores

/// `stratus schema import | export | validate | diff`: `.ckdb` files, as cktool reads and writes them.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Import, export and validate schemas in the CloudKit Schema Language (.ckdb), as cktool does.",
        subcommands: [SchemaImportCommand.self, SchemaExportCommand.self, SchemaValidateCommand.self, SchemaDiffCommand.self]
    )
}

/// Reads a schema file (or standard input for `-`).
func readSchemaFile(_ file: String) throws -> String {
    let data: Data
    if file == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        guard let contents = FileManager.default.contents(atPath: file) else { throw CommandFailure.usage("cannot read \(file)") }
        data = contents
    }
    guard let text = String(data: data, encoding: .utf8) else { throw CommandFailure.failed("\(file) is not UTF-8 text") }
    return text
}

/// Parses a schema file, or fails with `FILE:LINE:COLUMN: message` (exit 1).
func parseSchemaFile(_ file: String) throws -> SchemaDocument {
    let text = try readSchemaFile(file)
    do {
        return try SchemaDocument.parse(text)
    } catch {
        let name = file == "-" ? "<stdin>" : file
        throw CommandFailure.failed("\(name):\(error.line):\(error.column): \(error.message)")
    }
}

struct SchemaImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Make the store's schema what a .ckdb file declares: types, fields, indexes, roles, grants.",
        discussion: """
            Types the file does not declare are removed (Users stays when the file omits it). Fields whose \
            QUERYABLE / SORTABLE / SEARCHABLE options change are re-indexed for every record at once.
            An import that would lose data (a removed type or field that holds records, a field whose type \
            changes while records hold it) is refused with each loss named; in a development store, --force \
            deletes that data instead. --environment production also makes the store a production store, \
            where only declared types and fields can be saved and only declared indexes queried.
            """
    )

    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Argument(help: "The .ckdb file, or - for standard input.") var file: String
    @Option(help: "development or production: the store's environment after the import.") var environment: String?
    @Flag(help: "In a development store, delete the data the import would lose instead of refusing.") var force = false
    @Flag(help: "Show what would change and what would be lost, without changing anything.") var dryRun = false
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func run() throws {
        var target: StoreEnvironment?
        if let environment {
            guard let parsed = StoreEnvironment(rawValue: environment.lowercased()) else {
                throw CommandFailure.usage("--environment must be development or production, not '\(environment)'")
            }
            target = parsed
        }
        let document = try parseSchemaFile(file)
        let opened = try StoreLocation.open(store ?? StoreLocation.defaultPath, ifMissing: .create)
        let result = try opened.importSchema(document, environment: target, force: force, dryRun: dryRun)
        if json {
            func list(_ items: [String]) -> JSONValue { .array(items.map { .string($0) }) }
            Output.json(.object([
                ("environment", .string(result.environment.rawValue)), ("dryRun", .bool(dryRun)),
                ("addedTypes", list(result.addedTypes)), ("removedTypes", list(result.removedTypes)),
                ("addedFields", list(result.addedFields)), ("removedFields", list(result.removedFields)),
                ("retypedFields", list(result.retypedFields)), ("reindexedFields", list(result.reindexedFields)),
                ("rebuiltRecords", .integer(Int64(result.rebuiltRecords))), ("deletedRecords", .integer(Int64(result.deletedRecords))),
                ("strippedRecords", .integer(Int64(result.strippedRecords))), ("losses", list(result.losses.map(\.description))),
            ]))
            return
        }
        for line in result.summary { Output.line(line) }
        for loss in result.losses { Output.warn("deleted: \(loss)") }
        Output.line(dryRun ? "Dry run: nothing was changed." : "Imported the schema (\(result.environment.rawValue) store).")
    }
}

struct SchemaExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the store's schema as cktool export-schema does."
    )

    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "Write to this file instead of standard output.") var out: String?

    func run() throws {
        let text = try StoreLocation.open(store ?? StoreLocation.defaultPath, ifMissing: .refuse).exportSchema().text
        if let out {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: out))
            } catch {
                throw CommandFailure.failed("cannot write \(out): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

struct SchemaValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a .ckdb file: prints 'Schema is valid.' (exit 0) or the error with its line and column (exit 1)."
    )

    @Argument(help: "The .ckdb file, or - for standard input.") var file: String

    func run() throws {
        _ = try parseSchemaFile(file)
        Output.line("Schema is valid.")
    }
}
