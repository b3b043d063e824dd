import Foundation
import StratusCloud

/// One firing of a fault, as `faults log` shows it.
public struct FaultEvent: Sendable, Hashable {
    public var id: Int64
    public var faultID: Int64
    public var time: Date
    public var kind: FaultKind
    public var operation: FaultOperation
    public var database: String
    public var zoneName: String?
    /// The error the call got (or, for `serverRecordChanged`, what the other device did).
    public var message: String

    public init(id: Int64, faultID: Int64, time: Date, kind: FaultKind, operation: FaultOperation, database: String,
                zoneName: String?, message: String) {
        self.id = id
        self.faultID = faultID
        self.time = time
        self.kind = kind
        self.operation = operation
        self.database = database
        self.zoneName = zoneName
        self.message = message
    }
}
