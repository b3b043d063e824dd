import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud

/// `stratus`: a local CloudKit on the command line.
struct Stratus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "A local CloudKit: records, zones, queries and change tokens in one SQLite file.",
        discussion: """
            Exit codes: 0 success, 1 the operation failed (a CloudKit error, an invalid predicate), 2 bad usage.
            The store is --store PATH, else $STRATUS_STORE, else \(StoreLocation.defaultPath).
            """,
        version: StratusVersion.description,
        subcommands: [
            DashboardCommand.self, DemoCommand.self, ZonesCommand.self, SaveCommand.self, FetchCommand.self, DeleteCommand.self,
            ChangesCommand.self, TokenCommand.self, QueryCommand.self, CheckCommand.self, SchemaCommand.self, ExportCommand.self, BenchCommand.self, BenchLoadCommand.self,
            SubscriptionsCommand.self, NotificationsCommand.self, ServeCommand.self, AuthCommand.self, LogsCommand.self, HistoryCommand.self,
            UsersCommand.self, ShareCommand.self, FaultsCommand.self, RemoteCommand.self, PullCommand.self, StoreCommand.self,
        ],
        defaultSubcommand: DashboardCommand.self
    )
}

@main
enum Main {
    static func main() {
        // However the command ends, the stores it opened close first (see `StoreLocation.closeAll`).
        func exit(_ code: Int32) -> Never {
            StoreLocation.closeAll()
            Foundation.exit(code)
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let wantsJSON = ErrorReporter.wantsJSON(arguments)
        var command: any ParsableCommand
        do {
            command = try Stratus.parseAsRoot(arguments)
        } catch {
            // A mistyped command reads as an argument of the default one: say which word it is.
            if Stratus.exitCode(for: error) != .success, let unknown = UnknownCommand.message(for: arguments) {
                FileHandle.standardError.write(Data("error: \(unknown)\n".utf8))
                if wantsJSON { ErrorReporter.reportJSON(failure: unknown) }
                exit(2)
            }
            report(error)
        }
        do {
            try command.run()
            StoreLocation.closeAll()
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { FileHandle.standardError.write(Data((failure.message + "\n").utf8)) }
            if wantsJSON, !failure.resultsPrinted, let reason = failure.reason { ErrorReporter.reportJSON(failure: reason) }
            exit(failure.exitCode)
        } catch let error as CloudKitError {
            ErrorReporter.report(error)
            if wantsJSON { ErrorReporter.reportJSON(error) }
            exit(1)
        } catch {
            report(error)
        }

        /// ArgumentParser's outcomes (help, a version, a usage error) and any other error.
        func report(_ error: any Error) -> Never {
            let code = Stratus.exitCode(for: error)
            if code == .success {
                Stratus.exit(withError: error)
            }
            let message = Stratus.fullMessage(for: error)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            if wantsJSON { ErrorReporter.reportJSON(failure: Stratus.message(for: error)) }
            // Usage problems exit 2, as the command-line contract says; ArgumentParser's own is 64.
            exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

/// A failure the command already explained, with the exit code to leave with.
struct CommandFailure: Error {
    var message: String
    var exitCode: Int32
    /// The command printed its results (per-record outcomes with their errors) before failing,
    /// so `--json` adds no error line of its own after them.
    var resultsPrinted = false
    /// The failure in words without the `error: ` the terminal shows, for `--json`'s `reason`;
    /// `nil` when the command printed its own account (or nothing).
    var reason: String?

    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: "error: \(message)", exitCode: 2, reason: message) }
    static func failed(_ message: String) -> CommandFailure { CommandFailure(message: "error: \(message)", exitCode: 1, reason: message) }
}
