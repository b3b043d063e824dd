import Foundation

/// Bind mounts, for the tests of a store on a read-only file system (the dashboard's and the
/// reliability tests'). Only root may make them, and not in every container, so the tests ask
/// first (``works(readOnly:)``) and are skipped where it cannot be done.
public enum BindMount {
    /// Runs mount(8) with `arguments`; true when it succeeded.
    @discardableResult
    public static func mount(_ arguments: [String]) -> Bool { run("/bin/mount", arguments) }

    /// Runs umount(8) on `mountPoint`; true when it succeeded.
    @discardableResult
    public static func unmount(_ mountPoint: String) -> Bool { run("/bin/umount", [mountPoint]) }

    /// Whether a folder can be bind-mounted here, and remounted read-only when `readOnly`:
    /// tried on scratch folders, undone at the end.
    public static func works(readOnly: Bool) -> Bool {
        guard geteuid() == 0, let probe = try? TemporaryDirectory("stratus-mount-probe") else { return false }
        return withExtendedLifetime(probe) {
            let source = probe.path("source"), mountPoint = probe.path("mount")
            for path in [source, mountPoint] {
                guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else { return false }
            }
            guard mount(["--bind", source, mountPoint]) else { return false }
            defer { unmount(mountPoint) }
            return !readOnly || mount(["-o", "remount,ro,bind", mountPoint])
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
