/// CloudKit's limits on one call, shared by every backend and front end, so a page, a batch or
/// a playback is the same size on a local store and on an endpoint.
public enum CloudKitLimits {
    /// The most records or deletions one `modifyRecords` call takes, as CloudKit's guidance says.
    public static let maximumBatchSize = 400
    /// The largest record, in bytes of field data, assets excluded.
    public static let maximumRecordSize = 1_048_576
    /// Records per query page when the caller sets no limit.
    public static let defaultQueryLimit = 100
    /// The most records one query page returns.
    public static let maximumQueryLimit = 1000
    /// The default page size of change playback, CloudKit Web Services' limit per response.
    public static let defaultChangesLimit = 200
    /// The largest page one playback call returns.
    public static let maximumChangesLimit = 10_000
    /// The most notifications one read returns when the caller sets no limit.
    public static let defaultNotificationLimit = 1000
}
