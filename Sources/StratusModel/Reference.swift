/// A reference to another record in the same zone, with what happens when the target goes.
public struct Reference: Hashable, Sendable {
    /// What deleting the target does to the record that holds the reference.
    public enum Action: String, Sendable, CaseIterable {
        /// Nothing: the reference dangles.
        case none = "NONE"
        /// The holder is deleted with the target, in the same transaction.
        case deleteSelf = "DELETE_SELF"
    }

    public var recordName: String
    public var action: Action

    public init(recordName: String, action: Action = .none) {
        self.recordName = recordName
        self.action = action
    }
}
