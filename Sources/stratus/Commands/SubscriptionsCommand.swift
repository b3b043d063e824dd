import ArgumentParser
import Foundation
import StratusEngine
import StratusPredicates
import StratusCloud
import StratusCKWS

struct SubscriptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "List, make and delete subscriptions (query, zone and database), as CKSubscription.",
        subcommands: [List.self, Create.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List this user's subscriptions in a database.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            let subscriptions = try common.service().allSubscriptions()
            if common.json {
                Output.json(.object([("subscriptions", .array(subscriptions.map { SubscriptionJSON.encode($0, owner: nil) }))]))
                return
            }
            for subscription in subscriptions { Output.line(SubscriptionPrinter.line(subscription)) }
            Output.line("\(subscriptions.count) subscription\(subscriptions.count == 1 ? "" : "s")")
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make (or replace, by --id) a subscription.",
            discussion: """
                query (default): records of --type matching --filter; --on picks the reasons (default create,update,delete); \
                it watches every zone unless --zone names a custom zone. Not in the shared database.
                zone: every change in the custom zone --zone (optionally only of --type). Not in the public database.
                database: every change in the database's custom zones (optionally only of --type). Not in the public database.
                --arg gives a value for each format specifier, in order: string:red, int:5, double:2.5, \
                date:2024-05-01T00:00:00Z, ref:RECORDNAME, location:37.33,-122.03, list:["red","green"], key:fieldName (for %K).
                A bare value fills %d (an integer), %f (a number) and %K (a field name): --arg 12.
                """
        )
        @OptionGroup var common: CommonOptions
        @Option(help: "query, zone or database.") var kind: String = "query"
        @Option(help: "The record type (required for query subscriptions).") var type: String?
        @Option(help: "An NSPredicate format string (query subscriptions; default TRUEPREDICATE).") var filter: String = "TRUEPREDICATE"
        @Option(name: .customLong("arg"), help: "TYPE:VALUE for each format specifier, in order.") var arguments: [String] = []
        @Option(help: "When a query subscription fires: create, update, delete, comma-separated.") var on: String?
        @Flag(help: "Remove the query subscription after it fires once.") var once = false
        @Option(help: "The subscription ID (default: a new UUID).") var id: String?
        @Option(help: "Fields whose values the notifications carry (at most 3, comma-separated).") var keys: String?
        @Option(help: "The notification's alert text.") var alertBody: String?
        @Option(help: "The notification's title.") var title: String?
        @Option(help: "The notification's category.") var category: String?
        @Flag(help: "Send the notifications as silent (content-available) pushes.") var contentAvailable = false

        func run() throws {
            let database = try common.database()
            let subscriptionID = id ?? UUID().uuidString
            var info: NotificationInfo?
            if keys != nil || alertBody != nil || title != nil || category != nil || contentAvailable {
                info = NotificationInfo(desiredKeys: keys.map(parseKeyList), alertBody: alertBody, title: title, category: category,
                                        shouldSendContentAvailable: contentAvailable)
            }
            let subscription: Subscription
            switch kind.lowercased() {
            case "query":
                guard let type else { throw CommandFailure.usage("a query subscription needs --type") }
                var options = try parseFiresOn(on)
                if once { options.insert(.firesOnce) }
                let zoneID = try common.zoneID().isDefault ? nil : try common.zoneID()
                subscription = .query(type, predicateFormat: filter, arguments: try ArgumentParsing.parse(arguments, filter: filter), subscriptionID: subscriptionID,
                                      options: options, zoneID: zoneID, notificationInfo: info)
            case "zone", "recordzone":
                try refuseQueryOptions()
                subscription = .recordZone(try common.zoneID(), recordType: type, subscriptionID: subscriptionID, notificationInfo: info)
            case "database", "db":
                try refuseQueryOptions()
                subscription = .database(recordType: type, subscriptionID: subscriptionID, notificationInfo: info)
            default:
                throw CommandFailure.usage("--kind must be query, zone or database, not '\(kind)'")
            }
            do {
                try database.save(subscription)
            } catch let error as CloudKitError where error.predicateDiagnostics != nil {
                throw CommandFailure.failed("invalidArguments (12): the predicate is not a valid CloudKit query\n" + error.predicateDiagnostics!.rendered())
            }
            if common.json {
                Output.json(.object([("subscriptions", .array([SubscriptionJSON.encode(subscription, owner: nil)]))]))
            } else {
                Output.line("created \(SubscriptionPrinter.line(subscription))")
            }
        }

        private func refuseQueryOptions() throws {
            if on != nil || once || filter != "TRUEPREDICATE" || !arguments.isEmpty {
                throw CommandFailure.usage("--filter, --arg, --on and --once apply only to query subscriptions (--kind query)")
            }
        }

        private func parseFiresOn(_ text: String?) throws -> QuerySubscriptionOptions {
            guard let text else { return .firesOnAnyChange }
            var options: QuerySubscriptionOptions = []
            for word in parseKeyList(text) {
                switch word.lowercased() {
                case "create", "creation", "created": options.insert(.firesOnRecordCreation)
                case "update", "updated": options.insert(.firesOnRecordUpdate)
                case "delete", "deletion", "deleted": options.insert(.firesOnRecordDeletion)
                default: throw CommandFailure.usage("--on takes create, update and delete, comma-separated, not '\(word)'")
                }
            }
            return options
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete subscriptions by ID.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Subscription IDs.") var ids: [String]

        func run() throws {
            try common.database().modifySubscriptions(deleting: ids)
            if common.json {
                Output.json(.object([("subscriptions", .array(ids.map(DeletionJSON.subscription)))]))
            } else {
                Output.line("deleted \(ids.joined(separator: ", "))")
            }
        }
    }
}
