/// Why ``EventLoop/run()`` ended without the app asking: the process got SIGINT, SIGTERM or
/// SIGHUP. The terminal is already restored when this is thrown; exit with ``exitCode``, as
/// shells report a process ended by a signal (SIGTERM: 143).
public struct TerminalSignal: Error, Hashable, Sendable {
    public var signal: Int32

    public init(signal: Int32) {
        self.signal = signal
    }

    public var exitCode: Int32 { 128 + signal }
}
