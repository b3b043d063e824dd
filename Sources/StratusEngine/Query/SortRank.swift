import StratusModel
import StratusCloud

/// A 64-bit stand-in for a sort value that orders as the value does, loosely: when two ranks
/// differ they give the order ``SortOrder`` gives, when they are equal only the values can
/// tell. Sorting a group of a few thousand members by title then compares integers, and
/// touches the strings only for the few that share their first eight bytes.
struct SortRank {
    /// Values compare only within their kind (``SortOrder`` calls other pairs equal).
    enum Kind: Equatable {
        case number, timestamp, string, reference
    }

    let kind: Kind
    let rank: UInt64

    /// The rank of a present value, nil for a kind without one (locations, bytes, lists, NaN).
    init?(_ value: FieldValue, ascending: Bool) {
        let bits: UInt64
        switch value {
        case .string(let text): (kind, bits) = (.string, UTF8Order.prefix(text))
        case .reference(let reference): (kind, bits) = (.reference, UTF8Order.prefix(reference.recordName))
        case .int64(let number): (kind, bits) = (.number, SortRank.ordered(Double(number)))
        case .double(let number):
            guard !number.isNaN else { return nil }
            (kind, bits) = (.number, SortRank.ordered(number))
        case .timestamp(let date):
            (kind, bits) = (.timestamp, SortRank.ordered(Double(FieldValue.milliseconds(date))))
        default: return nil
        }
        // The largest rank is kept for a missing value, which sorts last either way.
        rank = min(ascending ? bits : ~bits, SortRank.missing - 1)
    }

    /// What a member lacking the value ranks as: after every present value.
    static let missing = UInt64.max

    /// A double's bits turned so that unsigned order is numeric order (-0 and 0 tie).
    private static func ordered(_ number: Double) -> UInt64 {
        let bits = (number == 0 ? 0 : number).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    /// Member indices in the order `precedes` gives, with `values[at]` ranked to settle most
    /// comparisons. Ranks stand in only where every member shares the earlier sort values and
    /// the present values are of one rankable kind; otherwise `precedes` decides alone.
    static func order(of members: [QueryExecutor.Member], rankingSortAt position: Int, ascending: Bool,
                      precedes: (QueryExecutor.Member, QueryExecutor.Member) -> Bool) -> [Int] {
        var order = Array(members.indices)
        guard let ranks = ranks(of: members, at: position, ascending: ascending) else {
            order.sort { precedes(members[$0], members[$1]) }
            return order
        }
        order.sort { a, b in
            ranks[a] != ranks[b] ? ranks[a] < ranks[b] : precedes(members[a], members[b])
        }
        return order
    }

    private static func ranks(of members: [QueryExecutor.Member], at position: Int, ascending: Bool) -> [UInt64]? {
        guard let first = members.first, position < first.values.count else { return nil }
        for member in members.dropFirst() {
            for earlier in 0..<position where SortOrder.compare(member.values[earlier], first.values[earlier]) != 0 { return nil }
        }
        var kind: Kind?
        var ranks: [UInt64] = []
        ranks.reserveCapacity(members.count)
        for member in members {
            guard let value = member.values[position] else {
                ranks.append(missing)
                continue
            }
            guard let ranked = SortRank(value, ascending: ascending), kind == nil || kind == ranked.kind else { return nil }
            kind = ranked.kind
            ranks.append(ranked.rank)
        }
        return ranks
    }
}
