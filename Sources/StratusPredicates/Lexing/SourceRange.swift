/// A span of the predicate's source, counted in Unicode scalars (code points) from 0.
///
/// Code points, not bytes or grapheme clusters, because the command line contract reports
/// `offset`/`length` in code points and the editor maps them to display columns itself.
public struct SourceRange: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var offset: Int
    public var length: Int

    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }

    /// The empty range used once ranges are stripped for structural comparison.
    public static let none = SourceRange(offset: 0, length: 0)

    /// One past the last code point.
    public var end: Int { offset + length }

    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        let start = min(offset, other.offset)
        return SourceRange(offset: start, length: max(end, other.end) - start)
    }

    /// A range from `start` up to (not including) `end`.
    public static func between(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(offset: start, length: max(0, end - start))
    }

    public static func < (lhs: SourceRange, rhs: SourceRange) -> Bool {
        (lhs.offset, lhs.length) < (rhs.offset, rhs.length)
    }

    public var description: String { "\(offset)+\(length)" }
}
