import StratusCloud

/// A remote's session that expired fails every call made with it: the status line says what
/// to do ("session expired — run: stratus remote login NAME"), whatever the call, rather than
/// a stack of errors.
enum SessionExpiry {
    /// Puts the advice on the status line when `message` failed for want of a session.
    static func note(_ state: inout DashboardState, after message: DashboardMessage, on remote: RemoteContainer) {
        guard let error = failure(in: message), case .remoteSignInRequired = error.reason else { return }
        state.status = StatusMessage(remote.signInAdvice, kind: .error)
    }

    /// The error a posted message carries (every tab's results are a `Result` whose failure is
    /// a `CloudKitError`), found by reflection so no tab's message needs a case here. Only enums
    /// and tuples are looked into: never a page's records.
    static func failure(in message: DashboardMessage) -> CloudKitError? {
        find(in: message, depth: 0)
    }

    private static func find(in value: Any, depth: Int) -> CloudKitError? {
        guard depth < 6 else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum || mirror.displayStyle == .tuple || mirror.displayStyle == .optional else { return nil }
        for child in mirror.children {
            if let error = child.value as? CloudKitError { return error }
            if let found = find(in: child.value, depth: depth + 1) { return found }
        }
        return nil
    }
}
