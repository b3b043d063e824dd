import Foundation
import Testing
import StratusModel
import StratusCloud
import StratusCKWS

/// Records and subscriptions written by the codec read back as the values they were.
@Suite struct RecordAndSubscriptionJSONTests {
    @Test func aRecordRoundTripsInBothShapes() throws {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "N1", zoneID: ZoneID(zoneName: "Notes")),
                            fields: ["title": .string("Lisbon"), "nights": .int64(3), "price": .double(9.5),
                                     "tags": .list(.string, [.string("a"), .string("b")])])
        record.recordChangeTag = "3k"
        record.creationDate = Date(timeIntervalSince1970: 1_763_000_000)
        for owner in [nil, "_me"] as [String?] {
            let text = JSONWriter.string(RecordJSON.encode(record, owner: owner))
            let decoded = try RecordJSON.decode(try JSONParser.parse(text), zoneID: .default)
            // A response names the acting user where the store says "the default owner".
            #expect(decoded.recordID == RecordID(recordName: "N1", zoneID: ZoneID(zoneName: "Notes", ownerName: owner ?? ZoneID.defaultOwnerName)))
            #expect(decoded.recordType == "Note" && decoded.recordChangeTag == "3k")
            #expect(decoded.fields == record.fields)
            #expect(decoded.creationDate == record.creationDate)
        }
    }

    @Test func aSubscriptionRoundTripsThroughTheWebServicesShape() throws {
        let subscriptions: [Subscription] = [
            .query("Note", predicateFormat: "nights > 2", subscriptionID: "Q", options: [.firesOnRecordCreation, .firesOnce],
                   zoneID: ZoneID(zoneName: "Notes"), notificationInfo: NotificationInfo(alertBody: "new", shouldBadge: true)),
            .query("Note", subscriptionID: "W", options: .firesOnAnyChange),
            .recordZone(ZoneID(zoneName: "Notes"), subscriptionID: "Z"),
            .database(subscriptionID: "D", notificationInfo: NotificationInfo(shouldSendContentAvailable: true)),
        ]
        for subscription in subscriptions {
            let text = JSONWriter.string(SubscriptionJSON.encode(subscription, owner: "_me"))
            let decoded = try SubscriptionJSON.decode(try JSONParser.parse(text))
            #expect(decoded.subscriptionID == subscription.subscriptionID)
            #expect(decoded.subscriptionType == subscription.subscriptionType)
            #expect(decoded.zoneID == subscription.zoneID && decoded.recordType == subscription.recordType)
            #expect(decoded.querySubscriptionOptions == subscription.querySubscriptionOptions)
            #expect(decoded.notificationInfo == subscription.notificationInfo)
        }
    }

    /// `subscriptions --json`: the predicate as written and the store's names.
    @Test func aSubscriptionWithTheStoresNamesKeepsItsPredicateText() {
        let subscription = Subscription.query("Note", predicateFormat: "title == %@", arguments: [.value(.string("x"))], subscriptionID: "Q",
                                              options: [.firesOnRecordUpdate], zoneID: ZoneID(zoneName: "Notes"),
                                              notificationInfo: NotificationInfo(desiredKeys: ["title"], title: "T"))
        #expect(JSONWriter.string(SubscriptionJSON.encode(subscription, owner: nil)) == #"{"subscriptionID":"Q","subscriptionType":"query","recordType":"Note","#
            + #""zoneID":{"zoneName":"Notes","ownerRecordName":"__defaultOwner__"},"query":{"filter":"title == %@","arguments":[{"value":"x","type":"STRING"}]},"#
            + #""firesOn":["update"],"firesOnce":false,"notificationInfo":{"desiredKeys":["title"],"title":"T","shouldSendContentAvailable":false}}"#)
    }
}
