/// `CKSubscription.NotificationInfo`: what the notifications of a subscription carry.
public struct NotificationInfo: Hashable, Sendable {
    /// The most `desiredKeys` CloudKit takes.
    public static let maximumDesiredKeys = 3

    /// Fields of the record whose values a query notification carries (at most 3).
    public var desiredKeys: [String]?
    public var alertBody: String?
    /// The alert's text as a key of the app's localized strings, and its format arguments
    /// (field names); the action button's key and the launch image, as CKWS names them.
    public var alertLocalizationKey: String?
    public var alertLocalizationArgs: [String]?
    public var alertActionLocalizationKey: String?
    public var alertLaunchImage: String?
    public var title: String?
    public var subtitle: String?
    public var soundName: String?
    public var category: String?
    public var shouldBadge: Bool
    public var shouldSendContentAvailable: Bool

    public init(desiredKeys: [String]? = nil, alertBody: String? = nil, title: String? = nil, subtitle: String? = nil,
                soundName: String? = nil, category: String? = nil, shouldBadge: Bool = false, shouldSendContentAvailable: Bool = false) {
        self.desiredKeys = desiredKeys
        self.alertBody = alertBody
        self.title = title
        self.subtitle = subtitle
        self.soundName = soundName
        self.category = category
        self.shouldBadge = shouldBadge
        self.shouldSendContentAvailable = shouldSendContentAvailable
    }
}
