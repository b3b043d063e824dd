extension FaultTrigger {
    /// The trigger as a store's fault row keeps it: its name, count, probability and seed (its
    /// bits as a signed integer), which every backend writes and reads alike.
    package var columns: (name: String, n: Int, probability: Double?, seed: Int64?) {
        switch self {
        case .once: ("once", 0, nil, nil)
        case .after(let n): ("after", n, nil, nil)
        case .every(let n): ("every", n, nil, nil)
        case .probability(let p, let seed): ("probability", 0, p, Int64(bitPattern: seed))
        }
    }

    /// The trigger a fault row's columns keep (an unknown name is `once`).
    package init(name: String, n: Int, probability: Double?, seed: Int64?) {
        switch name {
        case "after": self = .after(n)
        case "every": self = .every(n)
        case "probability": self = .probability(probability ?? 0, seed: UInt64(bitPattern: seed ?? 0))
        default: self = .once
        }
    }
}
