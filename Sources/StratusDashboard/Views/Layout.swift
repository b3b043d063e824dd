import StratusTerminal

/// Where things go on screen. The update uses the same numbers to scroll lists by pages and to
/// know when a list nears its end, so it lives apart from the views.
enum Layout {
    /// Rows above the body: breadcrumb and tabs.
    static let headerRows = 2
    /// Rows below the body: hint bar and status line.
    static let footerRows = 2

    static func body(_ size: Size) -> Rect {
        Rect(x: 0, y: headerRows, width: size.width, height: size.height - headerRows - footerRows)
    }

    /// Rows of the Query tab's table (after two lines of settings and the column header).
    static func queryRows(_ size: Size) -> Int { max(1, body(size).height - 3) }
    static func fetchRows(_ size: Size) -> Int { max(1, body(size).height - 3) }
    static func changesRows(_ size: Size) -> Int { max(1, body(size).height - 4) }
    /// The Zones tab: the zones' table, and under it (when there is room) the selected zone's
    /// records per type as bars: a title line and a bar per type.
    static func zonesRows(_ size: Size) -> Int { max(1, body(size).height - zoneBarsHeight(size) - 1) }
    static func zoneBarsHeight(_ size: Size) -> Int {
        let height = body(size).height
        return height >= 12 ? min(10, height / 3) : 0
    }
    static func schemaRows(_ size: Size) -> Int { max(1, body(size).height - 1) }
    /// The Subscriptions tab: the subscriptions' table on top (a title line and the column
    /// header), the notifications panel below (the same).
    static func subscriptionsHeight(_ size: Size) -> Int { max(3, body(size).height * 2 / 5) }
    static func subscriptionRows(_ size: Size) -> Int { max(1, subscriptionsHeight(size) - 2) }
    static func notificationRows(_ size: Size) -> Int { max(1, body(size).height - subscriptionsHeight(size) - 2) }
    /// The Faults tab: the plan's table on top (a title line and the column header), the
    /// newest firings below (a title line).
    static func faultsHeight(_ size: Size) -> Int { max(3, body(size).height / 2) }
    static func faultRows(_ size: Size) -> Int { max(1, faultsHeight(size) - 2) }
    /// Field rows of the inspector: a box, two header lines and three lines for the
    /// selected value at the bottom.
    static func inspectorRows(_ size: Size) -> Int { max(1, body(size).height - 2 - 2 - 4) }
    static func formRows(_ size: Size) -> Int { max(1, body(size).height - 2 - 3) }
    static func pickerRows(_ size: Size) -> Int { max(1, min(16, body(size).height - 4)) }
    static func helpRows(_ size: Size) -> Int { max(1, body(size).height - 2) }
}
