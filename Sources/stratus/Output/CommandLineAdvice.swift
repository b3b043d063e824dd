import StratusEngine
import StratusCloud

/// What to type next, for the errors a command-line user can fix with another command or
/// option. The engine's errors speak CloudKit's words only (web clients read them too); the
/// command line adds its own advice here, in one place, from the error's typed reason (its
/// code when the reason is general), never from its English.
enum CommandLineAdvice {
    static func advice(for error: CloudKitError) -> String? {
        switch error.reason {
        case .fault:
            return "the store's fault plan made this error on purpose: `stratus faults list` shows it, `stratus faults clear` empties it"
        case .zoneNotFound(_, database: .shared), .sharedZoneNeedsOwner:
            return "list the zones shared with you with `stratus zones --db shared --user ALIAS`; a share's zone appears once you `stratus share accept URL`"
        case .zoneNotFound:
            return "list zones with `stratus zones`, or make one with `stratus zones create NAME`"
        case .unknownUser:
            return "make one with `stratus users create ALIAS`; `stratus users` lists them"
        case .unknownSubscription:
            return "list them with `stratus subscriptions`"
        case .storeNotFound(let path):
            let quoted = path.contains(" ") ? "'\(path)'" : path
            return "check the path; to make a store there, `stratus demo --store \(quoted) --no-ui` makes the demo, and `stratus save`, `stratus zones create`, `stratus schema import` and `stratus users create` make an empty one"
        case .storePathIsFolder(let path):
            return "give --store a file, e.g. \(path)/store.sqlite"
        case .fileIsNotADatabase:
            return "give --store a store file, or a path where a new one can be made"
        case .defaultZoneHasNoChangeFeed:
            return "pick a custom zone with --zone NAME"
        case .typeNotCreatableInProduction:
            return "declare the type in a schema file and run `stratus schema import FILE`"
        case .subscriptionFiresOnNothing:
            return "give --on create,update,delete (any of them)"
        case .schemaImportLosesData(forceAllowed: true):
            return "add --force to import it and delete that data"
        case .environmentFixedAtCreation:
            return "leave out --environment for a store that exists"
        case .unknownRemote:
            return "list the remotes with `stratus remote list`; add one with `stratus remote add NAME --container ID --environment development`"
        case .remoteSignInRequired(let remote):
            return "sign in again with `stratus remote login \(remote) --api-token TOKEN` (or --paste a web auth token)"
        case .remoteCredentialRejected(let remote):
            return "check the API token or key of the remote: `stratus remote show \(remote)`; set them again with `stratus remote login` or `stratus remote key`"
        case .remoteCredentialMissing(let remote):
            return "sign in with `stratus remote login \(remote) --api-token TOKEN`, or add a server-to-server key (public database) with `stratus remote key \(remote)`"
        case .remoteUnreachable:
            return "check the remote's URL (`stratus remote list`) and that the server runs"
        case .schemaImportLosesData(forceAllowed: false), .unknownRecordType, .notAvailableRemotely:
            return nil
        case .general:
            return error.code == .notAuthenticated ? "act as a user with --user ALIAS (`stratus users` lists them)" : nil
        }
    }
}
