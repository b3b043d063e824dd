import Foundation
import StratusModel
import StratusCloud

/// Reads records that NSPersistentCloudKitContainer and SwiftData write as the entities they
/// stand for: `CD_Trip` records as Trip objects, with their attributes under their own names, a
/// value stored in a `_ckAsset` companion folded into its attribute, to-one relationships (a
/// STRING holding the related record's name) followable, and `CDMR` join records as the
/// many-to-many links between two objects.
///
/// A developer debugging a Core Data app thinks in entities, not in `CD_` fields; this is the
/// translation, kept apart from any view so the dashboard and other tools share it.
public enum CoreDataLens {
    /// The zone NSPersistentCloudKitContainer mirrors a private store into.
    public static let zoneName = "com.apple.coredata.cloudkit.zone"
    /// The record type of many-to-many join records.
    public static let joinRecordType = "CDMR"
    /// The field prefix of mirrored attributes and relationships.
    public static let fieldPrefix = "CD_"

    /// Whether the lens has something to say about records of this type.
    public static func isMirrored(recordType: String) -> Bool {
        recordType.hasPrefix(fieldPrefix) || recordType == joinRecordType
    }

    /// Whether a zone holds mirrored data by its name (the lens turns on there by itself).
    public static func isMirroredZone(_ zoneID: ZoneID) -> Bool {
        zoneID.zoneName == zoneName || zoneID.zoneName.hasPrefix(zoneName + ".share.")
    }

    /// One attribute or to-one relationship of an entity.
    public struct Property: Hashable, Sendable {
        /// The name in the model (`title`, not `CD_title`).
        public var name: String
        public var value: FieldValue
        /// The value was read from the `CD_<name>_ckAsset` companion (too large to inline).
        public var isFromAsset: Bool
        /// The value names a record of the same zone (a to-one relationship, by its shape).
        public var relatedRecordName: String?
    }

    /// A mirrored record as the object it stands for.
    public struct Entity: Hashable, Sendable {
        /// The concrete entity (`CD_entityName`), or the root type's name without `CD_`.
        public var name: String
        /// The root entity of the inheritance chain, from the record type.
        public var rootName: String
        public var recordName: String
        /// Attributes and to-one relationships by name; system and bookkeeping fields
        /// (`CD_entityName`, `CD_moveReceipt`) are left out.
        public var properties: [Property]
        /// `CD_moveReceipt` is set: the object moved here from another zone (sharing).
        public var hasMoveReceipt: Bool
    }

    /// The entity a `CD_` record stands for; nil for other records (CDMR included).
    public static func entity(_ record: Record) -> Entity? {
        guard record.recordType.hasPrefix(fieldPrefix) else { return nil }
        let root = String(record.recordType.dropFirst(fieldPrefix.count))
        var name = root
        if case .string(let concrete)? = record.fields["CD_entityName"], !concrete.isEmpty { name = concrete }
        var properties: [String: Property] = [:]
        for (field, value) in record.fields where field.hasPrefix(fieldPrefix) {
            let bare = String(field.dropFirst(fieldPrefix.count))
            if bare == "entityName" || bare == "moveReceipt" || bare == "moveReceipt_ckAsset" { continue }
            if bare.hasSuffix("_ckAsset") {
                let attribute = String(bare.dropLast("_ckAsset".count))
                if properties[attribute] == nil || isEmpty(properties[attribute]!.value) {
                    properties[attribute] = Property(name: attribute, value: value, isFromAsset: true, relatedRecordName: nil)
                }
                continue
            }
            if let existing = properties[bare], existing.isFromAsset, isEmpty(value) { continue }
            properties[bare] = Property(name: bare, value: value, isFromAsset: false, relatedRecordName: relatedName(value))
        }
        let hasReceipt = record.fields["CD_moveReceipt"] != nil || record.fields["CD_moveReceipt_ckAsset"] != nil
        return Entity(name: name, rootName: root, recordName: record.recordName,
                      properties: properties.values.sorted { $0.name < $1.name }, hasMoveReceipt: hasReceipt)
    }

    /// A many-to-many link: one `CDMR` record, read in its two directions.
    public struct Link: Hashable, Sendable {
        /// One end of the link: an object and the relationship it holds the other by.
        public struct End: Hashable, Sendable {
            public var entity: String
            public var relationship: String
            public var recordName: String
        }

        public var joinRecordName: String
        /// The ends in the order CloudKit stores them (by owning entity name, then relationship).
        public var first: End
        public var second: End

        /// Seen from `recordName`: its own end and the other one; nil when the link does not
        /// touch it.
        public func ends(from recordName: String) -> (own: End, other: End)? {
            if first.recordName == recordName { return (first, second) }
            if second.recordName == recordName { return (second, first) }
            return nil
        }
    }

    /// The link a `CDMR` record holds; nil when it is not one or its fields are not two
    /// colon-separated names each (`CD_entityNames "Place:Trip"`).
    public static func link(_ record: Record) -> Link? {
        guard record.recordType == joinRecordType,
              let entities = pair(record.fields["CD_entityNames"]),
              let relationships = pair(record.fields["CD_relationships"]),
              let names = pair(record.fields["CD_recordNames"]) else { return nil }
        return Link(joinRecordName: record.recordName,
                    first: Link.End(entity: entities.0, relationship: relationships.0, recordName: names.0),
                    second: Link.End(entity: entities.1, relationship: relationships.1, recordName: names.1))
    }

    private static func pair(_ value: FieldValue?) -> (String, String)? {
        guard case .string(let text)? = value else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// NSPersistentCloudKitContainer names records by upper-case UUID strings, and a to-one
    /// relationship is a STRING holding one; an attribute that is a UUID (`CD_id`) looks the
    /// same, so a caller confirms by looking the record up.
    static func relatedName(_ value: FieldValue) -> String? {
        guard case .string(let text) = value, text.utf8.count == 36, UUID(uuidString: text) != nil else { return nil }
        return text
    }

    private static func isEmpty(_ value: FieldValue) -> Bool {
        switch value {
        case .string(let text): return text.isEmpty
        case .bytes(let data): return data.isEmpty
        default: return false
        }
    }
}
