import StratusEngine
import StratusCloud

/// What to type next, for the errors a command-line user can fix with another command or
/// option. The engine's errors speak CloudKit's words only (web clients read them too); the
/// command line adds its own advice here, in one place.
enum CommandLineAdvice {
    static func advice(for error: CloudKitError) -> String? {
        let message = error.message
        switch error.code {
        case _ where message.contains("of the store's fault plan"):
            return "the store's fault plan made this error on purpose: `stratus faults list` shows it, `stratus faults clear` empties it"
        case .zoneNotFound where message.contains("shared database"):
            return "list the zones shared with you with `stratus zones --db shared --user ALIAS`; a share's zone appears once you `stratus share accept URL`"
        case .zoneNotFound:
            return "list zones with `stratus zones`, or make one with `stratus zones create NAME`"
        case .unknownItem where message.hasPrefix("No user "):
            return "make one with `stratus users create ALIAS`; `stratus users` lists them"
        case .notAuthenticated:
            return "act as a user with --user ALIAS (`stratus users` lists them)"
        case .unknownItem where message.hasPrefix("Subscription "):
            return "list them with `stratus subscriptions`"
        case .badDatabase where message.hasSuffix("is a folder, not a store file."):
            return "give --store a file, e.g. \(message.dropLast(" is a folder, not a store file.".count))/store.sqlite"
        case .badDatabase where message.contains("not an SQLite database"):
            return "give --store a store file, or a path where a new one can be made"
        case .invalidArguments where message.hasPrefix("The default zone has no change feed"):
            return "pick a custom zone with --zone NAME"
        case .invalidArguments where message.hasPrefix("Cannot create new type"):
            return "declare the type in a schema file and run `stratus schema import FILE`"
        case .invalidArguments where message.contains("fires on nothing"):
            return "give --on create,update,delete (any of them)"
        case .invalidArguments where message.contains("A forced import deletes that data"):
            return "add --force to import it and delete that data"
        case .invalidArguments where message.contains("environment is chosen only when it is made"):
            return "leave out --environment for a store that exists"
        default:
            return nil
        }
    }
}
