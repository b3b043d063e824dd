import StratusCloud
import Testing

/// The CloudKit error `body` throws; nil, with an issue recorded at the caller, when it throws
/// nothing or another kind of error. Tests of typed reasons read the error this way.
public func failure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> CloudKitError? {
    do {
        try body()
        Issue.record("no error", sourceLocation: sourceLocation)
    } catch let error as CloudKitError {
        return error
    } catch {
        Issue.record("not a CloudKit error: \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
