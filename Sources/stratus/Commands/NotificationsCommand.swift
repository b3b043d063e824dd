import ArgumentParser
import Dispatch
import Foundation
import StratusEngine
import StratusCKWS

struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Print the notifications this user's subscriptions made in a database, oldest first; --follow waits for more.",
        discussion: """
            Notifications of changes made by the reading device (--device, default the store's own) are not shown, \
            as CloudKit does not deliver them to the originating device; --all-devices shows them too.
            --json prints {"notifications": [...]}; with --follow, one notification object per line.
            --follow shows changes saved by other processes as they commit: on PostgreSQL each commit wakes it (LISTEN/NOTIFY); \
            on an SQLite file it polls every 200 ms. Stop it with Ctrl-C.
            """
    )

    @OptionGroup var common: CommonOptions
    @Flag(help: "Keep running and print new notifications as they are made.") var follow = false
    @Option(help: "Only notifications after the one with this ID.") var since: String?
    @Flag(help: "Mark the printed notifications read.") var markRead = false
    @Flag(help: "Only notifications not yet marked read.") var unread = false
    @Flag(help: "Include notifications of changes made by this device.") var allDevices = false

    func run() throws {
        let database = try common.database()
        var sequence: Int64 = 0
        if let since { sequence = try database.sequence(ofNotification: since) }
        if !follow {
            var all: [CloudNotification] = []
            while true {
                let page = try read(database, after: sequence)
                all += page
                guard let last = page.last, page.count >= CloudDatabase.defaultNotificationLimit else { break }
                sequence = last.sequence
            }
            if common.json {
                Output.json(.object([("notifications", .array(all.map { SubscriptionPrinter.json($0, owner: database.user) }))]))
            } else {
                for notification in all { Output.line(SubscriptionPrinter.line(notification)) }
                Output.line("\(all.count) notification\(all.count == 1 ? "" : "s")")
            }
            if markRead { try database.markNotificationsRead(all.map(\.notificationID)) }
            return
        }
        let stopped = LockedBox(false)
        let handlers = NotificationsCommand.installStopHandlers(stopped)
        defer { _ = handlers }
        let watch = database.store.watch([.notifications], polling: .milliseconds(200))
        // The loop ends (and the command returns, closing the store) once a stop signal came.
        while !stopped.get() {
            let page = try read(database, after: sequence)
            for notification in page {
                Output.line(common.json ? JSONWriter.string(SubscriptionPrinter.json(notification, owner: database.user)) : SubscriptionPrinter.line(notification))
            }
            if let last = page.last {
                sequence = last.sequence
                if markRead { try database.markNotificationsRead(page.map(\.notificationID)) }
                if page.count >= CloudDatabase.defaultNotificationLimit { continue }
            }
            if watch.next(stopped: stopped.get) == .stopped { break }
        }
    }

    private func read(_ database: CloudDatabase, after sequence: Int64) throws -> [CloudNotification] {
        try database.notifications(afterSequence: sequence, unreadOnly: unread, includingOwnDevice: allDevices)
    }

    /// Ctrl-C and SIGTERM end `--follow` with exit status 0 at once (the wait asks every 50 ms).
    private static func installStopHandlers(_ stopped: LockedBox<Bool>) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopped.set(true) }
            source.resume()
            return source
        }
    }
}
