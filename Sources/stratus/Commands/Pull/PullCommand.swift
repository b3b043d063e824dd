import ArgumentParser
import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusStores

/// `stratus pull NAME --to STORE`: a local copy of a remote container's database, kept up to
/// date by pulling again.
struct PullCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Copy a remote container's zones and records into a local store; pull again for what changed since.",
        discussion: """
            Private and shared databases are read through their change feeds (changes/database, then changes/zone \
            for each changed zone); the public database and the private default zone, which have none, by querying \
            each record type, named by --schema (a .ckdb file as `cktool export-schema` writes it, also imported into \
            the store) or --types. \
            Records keep their names, change tags, creators, times and fields exactly. Shared zones go into their \
            owner's private database, the owner a local user of the same record name.
            The tokens each pull reached are kept in STORE.pull.json beside the store, after the records they cover \
            are written: pulling again fetches only what changed since, and a pull that was stopped (killed, \
            signed out) goes on from where it was. A store that exists must have been made by a pull of the same \
            container and environment.
            """
    )

    @Argument(help: "The remote (see `stratus remote`).") var name: String
    @Option(help: "The store file to pull into; made when missing.") var to: String
    @Option(help: "Only this zone.") var zone: String?
    @Option(help: "The database: private, shared or public.") var db: String = "private"
    @Option(help: "The record types of the public database and the private default zone (which have no change feed) from this .ckdb file, imported into the store too.") var schema: String?
    @Option(help: "Those record types, comma-separated, in place of --schema.") var types: String?
    @Flag(help: "Do not download assets; records are written without their asset fields.") var noAssets = false
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func validate() throws {
        guard let scope = DatabaseScope(name: db) else { throw ValidationError("--db must be public, private or shared, not '\(db)'") }
        if scope == .public, schema == nil, types == nil {
            throw ValidationError("the public database has no change feed: name its record types with --schema app.ckdb or --types T,U")
        }
        if scope == .shared, types != nil || schema != nil { throw ValidationError("--types and --schema name the record types of the public database and the private default zone; the shared database is read through its change feed") }
        if scope == .public, let zone, zone != ZoneID.defaultZoneName { throw ValidationError("the public database has only \(ZoneID.defaultZoneName)") }
        if to.hasPrefix("postgres://") || to.hasPrefix("postgresql://") {
            throw ValidationError("--to must be a store file, not a postgres:// URL: a pull keeps its tokens in a file beside the store")
        }
    }

    func run() throws {
        let scope = DatabaseScope(name: db) ?? .private
        let remote = try RemoteCommand.configurationFolder.remote(named: name)
        let document = try schema.map(parseSchemaFile)
        let recordTypes = types.map(parseKeyList) ?? document.map { $0.recordTypes.map(\.name).filter { $0 != "Users" } } ?? []
        let (store, state) = try openDestination(for: remote)
        if let document { _ = try store.importSchema(document) }
        let retry = RetryPolicy(attempts: 5, longestWait: 120)
        let service = try RemoteCommand.service(named: name, retry: retry, waiter: PullProgress.Waiter())
        guard let database = service.database(scope) as? RemoteDatabase else { throw CommandFailure.failed("remote '\(name)' is not a CloudKit Web Services container") }
        let progress = PullProgress()
        var pull = ContainerPull(remote: database, store: store, statePath: PullState.path(besides: to), state: state, includeAssets: !noAssets,
                                 onlyZone: zone, defaultZoneTypes: scope == .private ? recordTypes : [], retry: retry, events: progress.events)
        do {
            if scope == .public { try pull.pullPublic(types: recordTypes) } else { try pull.pullChanges() }
        } catch let error as CloudKitError {
            if error.code == .notAuthenticated {
                throw stopped(pull.tally, "\(error) — log in again: stratus remote login \(name) (then pull again: it goes on from where this pull stopped, nothing pulled is lost)")
            }
            throw stopped(pull.tally, "\(error) (what was pulled before it is kept; pull again to go on)")
        } catch let refusal as PullRefusal {
            for failure in refusal.failures { Output.warn("failed \(failure.recordName): \(failure.error)") }
            throw stopped(pull.tally, "\(refusal.failures.count) records of \(refusal.place) could not be written here (listed above); what was pulled before them is kept, and the next pull starts at their page")
        }
        report(pull.tally, complete: true, error: nil)
    }

    /// The summary of what was pulled before `reason` stopped the pull, and the failure to
    /// exit with (with `--json`, the summary carries the reason: one document on standard output).
    private func stopped(_ tally: PullTally, _ reason: String) -> CommandFailure {
        report(tally, complete: false, error: reason)
        var failure = CommandFailure.failed(reason)
        failure.resultsPrinted = json
        return failure
    }

    /// The store to pull into and its state: a new store (said so), or one a pull of the same
    /// container made. Anything else is refused, naming what it is.
    private func openDestination(for remote: Remote) throws -> (Store, PullState) {
        let statePath = PullState.path(besides: to)
        if StoreOpener.storeExists(at: to) {
            guard let state = try PullState.read(statePath) else {
                throw CommandFailure.failed("\(to) was not made by `stratus pull` (\(statePath) is missing); pull into a new store file")
            }
            try PullState.lockForThisProcess(besides: to)
            if let other = state.mismatch(with: remote.endpoint) {
                throw CommandFailure.failed("\(to) was pulled from \(other), not from remote '\(name)' (\(remote.endpoint.container), \(remote.endpoint.environment) at \(remote.endpoint.url)); pull into another store file")
            }
            let store = try StoreLocation.open(to, ifMissing: .refuse)
            guard state.storeID == store.storeID.uuidString else {
                throw CommandFailure.failed("\(statePath) belongs to another store than \(to) (the store was replaced); pull into a new store file")
            }
            return (store, state)
        }
        try PullState.lockForThisProcess(besides: to)
        // A state without its store (the store was removed): the pull starts over.
        unlink(statePath)
        let store = try StoreLocation.open(to, ifMissing: .create, creatingWith: .development)
        let state = PullState(url: remote.endpoint.url, container: remote.endpoint.container, environment: remote.endpoint.environment,
                              storeID: store.storeID.uuidString)
        try state.write(statePath)
        return (store, state)
    }

    private func report(_ tally: PullTally, complete: Bool, error: String?) {
        if json {
            guard case .object(var members) = tally.json else { return }
            members.insert(("complete", .bool(complete)), at: 0)
            if let error { members.append(("error", .string(error))) }
            Output.json(.object(members))
            return
        }
        Output.line((complete ? "Pulled" : "Pulled part of") + " \(name) (\(db) database) into \(to):")
        for line in tally.lines { Output.line("  " + line) }
    }
}
