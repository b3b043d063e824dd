import ArgumentParser
import StratusEngine
import StratusCKWS

struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the current change token of a zone (or the database) without playing back history."
    )

    @OptionGroup var common: CommonOptions
    @Flag(help: "The database token instead of the zone's.") var database = false

    func run() throws {
        if let remote = common.remote {
            throw CommandFailure.usage("CloudKit Web Services has no call for a token alone; `stratus zones --remote \(remote)` lists each zone's current token, and `stratus changes --database --remote \(remote)` ends with the database's")
        }
        let db = try common.database()
        let token = database ? try db.currentDatabaseToken() : try db.currentToken(for: try common.zoneID())
        if common.json { Output.json(ChangePageJSON.encode([], syncToken: token, moreComing: nil)) } else { Output.line(token) }
    }
}
