import StratusCloud

/// A remote's session that expired fails every call after it: the status line says once what
/// to do ("session expired — run: stratus remote login NAME") rather than a stack of errors,
/// until a call succeeds again.
enum SessionExpiry {
    /// Notes what `message` says of the session, and puts the advice over any error it caused.
    static func note(_ state: inout DashboardState, after message: DashboardMessage) {
        guard let remote = state.remote else { return }
        switch outcome(of: message) {
        case .failure(let error)?:
            if case .remoteSignInRequired = error.reason { state.sessionExpired = true }
        case .success?:
            state.sessionExpired = false
        case nil:
            break
        }
        if state.sessionExpired, state.status == nil || state.status?.kind == .error {
            state.status = StatusMessage(remote.signInAdvice, kind: .error)
        }
    }

    /// The result a posted message carries (every tab's results are a `Result` whose failure is
    /// a `CloudKitError`), found by reflection so no tab's message needs a case here. Only enums
    /// and tuples are looked into: never a page's records.
    static func outcome(of message: DashboardMessage) -> Result<Void, CloudKitError>? {
        find(in: message, depth: 0)
    }

    private static func find(in value: Any, depth: Int) -> Result<Void, CloudKitError>? {
        guard depth < 6 else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum || mirror.displayStyle == .tuple || mirror.displayStyle == .optional else { return nil }
        for child in mirror.children {
            if let error = child.value as? CloudKitError { return .failure(error) }
            if mirror.displayStyle == .enum, String(describing: type(of: value)).hasPrefix("Result<"), child.label == "success" { return .success(()) }
            if let found = find(in: child.value, depth: depth + 1) { return found }
        }
        return nil
    }
}
