/// One workload's figures: median milliseconds on Stratus and on the SQLite baseline, and
/// extra readings (rows returned, rates, peak memory).
public struct BenchResult: Sendable {
    public var name: String
    public var stratusMilliseconds: Double
    public var baselineMilliseconds: Double?
    public var extras: [(String, Double)]

    public var ratio: Double? {
        guard let baselineMilliseconds, baselineMilliseconds > 0 else { return nil }
        return stratusMilliseconds / baselineMilliseconds
    }

    public init(name: String, stratusMilliseconds: Double, baselineMilliseconds: Double?, extras: [(String, Double)] = []) {
        self.name = name
        self.stratusMilliseconds = stratusMilliseconds
        self.baselineMilliseconds = baselineMilliseconds
        self.extras = extras
    }
}
