import Foundation
import StratusModel
import StratusCloud

/// One entry of the records a CKWS server answered (a query page, a change page): the record
/// or its deletion, and what the answer said beside it that a decoded record does not keep.
public struct AnsweredRecord: Hashable, Sendable {
    public enum Change: Hashable, Sendable {
        case saved(Record)
        /// An entry with `"deleted": true` (a change page's): the record's name and, when the
        /// answer gave it, its type.
        case deleted(recordName: String, recordType: String?)
    }

    public var change: Change
    /// The keys the change set, when the server said (`stratus serve` does when asked).
    public var changedKeys: [String]?
    /// A share's short GUID, which a share record's entry carries.
    public var shortGUID: String?
    /// Each asset value's `downloadURL`, by its `fileChecksum`: where a pull fetches its content.
    public var downloadURLs: [String: String]

    public init(change: Change, changedKeys: [String]? = nil, shortGUID: String? = nil, downloadURLs: [String: String] = [:]) {
        self.change = change
        self.changedKeys = changedKeys
        self.shortGUID = shortGUID
        self.downloadURLs = downloadURLs
    }

    /// The entry an answer's JSON `item` holds, read as a tree; `zoneID` is the zone of a
    /// record that names none.
    static func decode(_ item: JSONValue, zoneID: ZoneID) throws(RecordJSON.DecodingError) -> AnsweredRecord {
        let change: Change
        var downloads: [String: String] = [:]
        if item["deleted"]?.boolValue == true {
            change = .deleted(recordName: item["recordName"]?.stringValue ?? "", recordType: item["recordType"]?.stringValue)
        } else {
            change = .saved(try RecordJSON.decode(item, zoneID: zoneID, restoring: true))
            if case .object(let fields)? = item["fields"] {
                for (_, field) in fields {
                    guard let type = field["type"]?.stringValue, type.hasPrefix("ASSET"), let value = field["value"] else { continue }
                    keepDownloadURLs(of: value, in: &downloads)
                }
            }
        }
        return AnsweredRecord(change: change, changedKeys: item["changedKeys"]?.arrayOfStrings, shortGUID: item["shortGUID"]?.stringValue,
                              downloadURLs: downloads)
    }

    /// Puts the `downloadURL` of an asset value (or of each in a list) in `urls`, by its checksum.
    static func keepDownloadURLs(of value: JSONValue, in urls: inout [String: String]) {
        let items: [JSONValue]
        if case .array(let list) = value { items = list } else { items = [value] }
        for item in items {
            if let checksum = item["fileChecksum"]?.stringValue, let url = item["downloadURL"]?.stringValue { urls[checksum] = url }
        }
    }
}
