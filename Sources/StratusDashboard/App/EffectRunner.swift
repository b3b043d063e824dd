import Foundation
import StratusEngine
import StratusModel
import StratusTerminal
import StratusCloud

/// What effects run against: the container (through its service, never the engine), the query
/// runner, theme files, the clipboard and the preferences file.
public struct DashboardServices: Sendable {
    var cloud: any CloudService
    var queryRunner: any QueryRunner
    var themeLoader: ThemeLoader?
    /// Puts text on the clipboard (OSC 52 in the real terminal; tests record it).
    var clipboard: @Sendable (String) -> Void
    /// Where recent filters and bookmarks are kept; nil keeps them in memory only.
    var preferencesPath: String?
    /// Waits out a remote's throttling with a countdown; nil on a local store.
    var throttle: ThrottleCountdown?
    /// Who acts; Act As switches it while the dashboard runs (the service's own box, so the
    /// queries switch too).
    var acting: ActingUser { cloud.acting }

    /// The services of a dashboard on `cloud`, its queries run through it.
    public init(cloud: any CloudService, themeLoader: ThemeLoader? = nil, clipboard: @escaping @Sendable (String) -> Void = { _ in },
                preferencesPath: String? = nil, throttle: ThrottleCountdown? = nil) {
        self.init(cloud: cloud, queryRunner: nil, themeLoader: themeLoader, clipboard: clipboard, preferencesPath: preferencesPath)
        self.throttle = throttle
    }

    /// - Parameter queryRunner: nil runs queries through `cloud` (tests wrap that to record calls).
    init(cloud: any CloudService, queryRunner: (any QueryRunner)?, themeLoader: ThemeLoader? = nil,
         clipboard: @escaping @Sendable (String) -> Void = { _ in }, preferencesPath: String? = nil) {
        self.cloud = cloud
        self.queryRunner = queryRunner ?? CloudQueryRunner(cloud: cloud)
        self.themeLoader = themeLoader
        self.clipboard = clipboard
        self.preferencesPath = preferencesPath
    }

    /// The device name the dashboard acts as unless told otherwise.
    public static let defaultDevice = "stratus-dashboard"
}

/// Runs effects: engine calls on background threads (results posted back as messages), quick
/// ones at once. Each job can be cancelled; long work checks between pages and batches.
public final class EffectRunner: Sendable {
    let services: DashboardServices
    private let cancelled = LockedValue<Set<Int>>([])
    private let queue = DispatchQueue(label: "stratus.dashboard.effects", qos: .userInitiated, attributes: .concurrent)

    public init(services: DashboardServices) {
        self.services = services
    }

    /// Starts an effect: immediate ones run now on this thread, the rest in the background.
    func perform(_ effect: Effect, post: @escaping @Sendable (DashboardMessage) -> Void) {
        if effect.isImmediate {
            execute(effect, post: post)
        } else {
            queue.async { [self] in execute(effect, post: post) }
        }
    }

    func isCancelled(_ job: Int) -> Bool {
        cancelled.withLock { $0.contains(job) }
    }

    /// Runs an effect to the end on the calling thread, posting what it produces (tests call
    /// this directly).
    func execute(_ effect: Effect, post: @Sendable (DashboardMessage) -> Void) {
        let started = ContinuousClock.now
        switch effect {
        case .query(let effect): executeQuery(effect, started: started, post: post)
        case .fetch(let effect): executeFetch(effect, started: started, post: post)
        case .changes(let effect): executeChanges(effect, started: started, post: post)
        case .zones(let effect): executeZones(effect, post: post)
        case .schema(let effect): executeSchema(effect, post: post)
        case .subscriptions(let effect): executeSubscriptions(effect, post: post)
        case .sharing(let effect): executeSharing(effect, post: post)
        case .logs(let effect): executeLogs(effect, post: post)
        case .faults(let effect): executeSyncLab(effect, post: post)
        case .record(let effect): executeRecord(effect, post: post)
        case .export(.write(let job, let export, let path)): exportResult(job: job, export, path: path, post: post)
        case .undo(.run(let job, let entry, let redo)): undo(job: job, entry, redo: redo, post: post)
        case .cancel, .copy, .actAs, .loadUsers, .loadTheme, .savePreferences, .stopThrottleWait:
            executeApp(effect, post: post)
        }
    }

    /// What is not a tab's: cancelling, the clipboard, Act As, users, themes, preferences.
    func executeApp(_ effect: Effect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .cancel(let job):
            cancelled.withLock { _ = $0.insert(job) }

        case .copy(let text):
            services.clipboard(text)

        case .actAs(let caller):
            services.acting.set(caller)

        case .stopThrottleWait:
            services.throttle?.stop()

        case .loadUsers(let job):
            post(.usersLoaded(job: job, capture { try services.cloud.users() }))

        case .loadTheme(let name):
            guard let loader = services.themeLoader else {
                post(.themeLoaded(name: name, .failure(ThemeError(file: name, message: "no themes directory was found"))))
                return
            }
            do {
                post(.themeLoaded(name: name, .success(try loader.load(named: name))))
            } catch {
                post(.themeLoaded(name: name, .failure(error)))
            }

        case .savePreferences(let preferences):
            guard let path = services.preferencesPath else { return }
            do {
                try PreferencesFile.save(preferences, to: path)
            } catch {
                post(.preferencesNotSaved(path: path, reason: PreferencesFile.reason(error)))
            }

        default:
            break
        }
    }

    /// Whole milliseconds since `started`, for the tabs' timings.
    static func milliseconds(since started: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - started
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Seconds since `started`.
    static func seconds(since started: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    func database(_ scope: DatabaseScope) -> any CloudDatabaseService {
        services.cloud.database(scope)
    }

    /// The local store's own features (the fault plan, the request log), or the error a tab
    /// shows on a container that has none.
    func localStore() throws -> any LocalStoreFeatures {
        guard let local = services.cloud.localStore else {
            throw CloudKitError(.badContainer, "Only a local store has this; this container is reached through CloudKit Web Services.")
        }
        return local
    }

    func capture<T>(_ body: () throws -> T) -> Result<T, CloudKitError> {
        do {
            return .success(try body())
        } catch {
            return .failure(EffectRunner.cloudKitError(error))
        }
    }

    static func cloudKitError(_ error: any Error) -> CloudKitError {
        error as? CloudKitError ?? CloudKitError(.internalError, "\(error)")
    }

}

/// The preferences file: JSON next to the store (`store.sqlite.dashboard.json`), or for a
/// remote in the user's config folder, one per remote.
public enum PreferencesFile {
    public static func path(forStore storePath: String) -> String { storePath + ".dashboard.json" }

    /// A remote's preferences (its bookmarks, recent filters) in `folder`: `dashboard-NAME.json`.
    public static func path(forRemote name: String, in folder: String) -> String { folder + "/dashboard-\(name).json" }

    public static func load(from path: String) -> DashboardPreferences {
        guard let data = FileManager.default.contents(atPath: path),
              let preferences = try? JSONDecoder().decode(DashboardPreferences.self, from: data) else { return DashboardPreferences() }
        return preferences
    }

    static func save(_ preferences: DashboardPreferences, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(preferences).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Why a write failed, in a few words: its folder missing, no permission, a full disk.
    static func reason(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileNoSuchFile?, .fileWriteInvalidFileName?: return "its folder does not exist"
        case .fileWriteNoPermission?, .fileWriteVolumeReadOnly?: return "permission denied"
        case .fileWriteOutOfSpace?: return "the disk is full"
        default:
            let text = (error as NSError).localizedDescription
            return text.hasSuffix(".") ? String(text.dropLast()) : text
        }
    }
}
