/// A row of numbers as a one-line chart, `▁▂▃▄▅▆▇█`, scaled between their least and greatest.
enum Sparkline {
    private static let levels = Array("▁▂▃▄▅▆▇█")

    /// The chart of `values`, one cell each; more values than `width` are averaged into
    /// `width` buckets. Empty for fewer than two finite values.
    static func line(_ values: [Double], width: Int) -> String {
        let finite = values.filter(\.isFinite)
        guard finite.count >= 2, width > 0 else { return "" }
        let buckets: [Double]
        if finite.count <= width {
            buckets = finite
        } else {
            buckets = (0..<width).map { bucket in
                let start = bucket * finite.count / width
                let end = max(start + 1, (bucket + 1) * finite.count / width)
                let slice = finite[start..<end]
                return slice.reduce(0, +) / Double(slice.count)
            }
        }
        guard let low = buckets.min(), let high = buckets.max() else { return "" }
        let span = high - low
        return String(buckets.map { value in
            span == 0 ? levels[levels.count / 2] : levels[min(levels.count - 1, Int((value - low) / span * Double(levels.count - 1) + 0.5))]
        })
    }
}
