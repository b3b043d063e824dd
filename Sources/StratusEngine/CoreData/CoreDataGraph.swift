import Foundation
import StratusModel
import StratusCloud
import StratusPredicates

/// The relationships of one mirrored object, read from its zone rather than guessed from the
/// shape of its values: a `CD_<name>` STRING is a to-one relationship only when it holds the
/// name of a record of the zone (a UUID attribute such as `CD_id` looks the same and is not);
/// the one side of a one-to-many relationship, which stores nothing, sees the records whose
/// field names it; and both ends of a many-to-many link see each other through its `CDMR`.
public struct CoreDataGraph: Hashable, Sendable {
    /// An object at the other end of a relationship.
    public struct Related: Hashable, Sendable {
        public var recordName: String
        /// Its concrete entity (`CD_entityName`, or the root type's name).
        public var entity: String

        public init(recordName: String, entity: String) {
            self.recordName = recordName
            self.entity = entity
        }
    }

    /// One relationship of the object and what it reaches.
    public struct Relationship: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            /// The object's own `CD_<name>` field names a record of the zone.
            case toOne
            /// Records of `entity` (a root entity, as its record type names it) name this object
            /// in their `CD_<name>` field (its side of a one-to-many or one-to-one relationship).
            case inverse(entity: String)
            /// `CDMR` join records link the object to others.
            case manyToMany
        }

        /// `owner` for a to-one or many-to-many relationship; the other entity's field for an
        /// inverse one (`owner` of `Trip`).
        public var name: String
        public var kind: Kind
        /// The objects reached, at most ``CoreDataGraph/shownLimit``.
        public var related: [Related]
        /// How many objects it reaches in all.
        public var count: Int

        public init(name: String, kind: Kind, related: [Related], count: Int) {
            self.name = name
            self.kind = kind
            self.related = related
            self.count = count
        }
    }

    /// The object's record name.
    public var recordName: String
    public var relationships: [Relationship]

    public init(recordName: String, relationships: [Relationship]) {
        self.recordName = recordName
        self.relationships = relationships
    }

    /// The most objects a relationship lists (its count stays whole).
    public static let shownLimit = 50

    /// The to-one relationship named `name`, if the field is one.
    public func toOne(_ name: String) -> Related? {
        relationships.first { $0.kind == .toOne && $0.name == name }?.related.first
    }

    /// Reads the relationships of `record` from its zone in `database`; `recordTypes` is the
    /// schema (which fields are STRINGs an inverse relationship may be stored in).
    public static func read(_ record: Record, in database: any CloudDatabaseService, recordTypes: [RecordTypeSchema]) throws -> CoreDataGraph {
        let present = try database.recordCountsByType(inZoneWith: record.recordID.zoneID)
        var relationships = try toOne(record, in: database)
        relationships += try inverse(record, in: database, recordTypes: recordTypes, present: present)
        if present[CoreDataLens.joinRecordType, default: 0] > 0 { relationships += try manyToMany(record, in: database) }
        return CoreDataGraph(recordName: record.recordName, relationships: relationships)
    }

    /// The record's STRING fields that name a record of its zone, looked up in one call.
    private static func toOne(_ record: Record, in database: any CloudDatabaseService) throws -> [Relationship] {
        guard CoreDataLens.entity(record) != nil else { return [] }
        var candidates: [(field: String, name: String)] = []
        for (field, value) in record.fields where field.hasPrefix(CoreDataLens.fieldPrefix) && !bookkeeping.contains(field) {
            guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= 255, text != record.recordName else { continue }
            candidates.append((field, text))
        }
        guard !candidates.isEmpty else { return [] }
        let zoneID = record.recordID.zoneID
        let fetched = try database.records(for: candidates.map { RecordID(recordName: $0.name, zoneID: zoneID) },
                                           desiredKeys: ["CD_entityName"], progress: nil)
        var found: [String: Related] = [:]
        for item in fetched {
            guard case .success(let related) = item.result else { continue }
            found[related.recordName] = Related(recordName: related.recordName, entity: entityName(related))
        }
        return candidates.compactMap { candidate in
            found[candidate.name].map {
                Relationship(name: String(candidate.field.dropFirst(CoreDataLens.fieldPrefix.count)), kind: .toOne, related: [$0], count: 1)
            }
        }.sorted { $0.name < $1.name }
    }

    /// Records of the zone's mirrored types whose queryable STRING fields name the record.
    private static func inverse(_ record: Record, in database: any CloudDatabaseService, recordTypes: [RecordTypeSchema],
                                present: [String: Int]) throws -> [Relationship] {
        let zoneID = record.recordID.zoneID
        var relationships: [Relationship] = []
        for type in recordTypes.sorted(by: { $0.name < $1.name })
        where type.name.hasPrefix(CoreDataLens.fieldPrefix) && present[type.name, default: 0] > 0 {
            for field in type.fields.values.sorted(by: { $0.name < $1.name })
            where field.type == .string && field.indexes.contains(.queryable)
                && field.name.hasPrefix(CoreDataLens.fieldPrefix) && !bookkeeping.contains(field.name) {
                let query = Query(recordType: type.name, predicateFormat: "%K == %@", arguments: [.key(field.name), .string(record.recordName)])
                var related: [Related] = []
                var count = 0
                var page = try database.records(matching: query, inZoneWith: zoneID, desiredKeys: ["CD_entityName"], resultsLimit: 400)
                while true {
                    for match in page.records where match.recordID != record.recordID {
                        count += 1
                        if related.count < shownLimit { related.append(Related(recordName: match.recordName, entity: entityName(match))) }
                    }
                    guard let cursor = page.cursor else { break }
                    page = try database.records(continuingMatchFrom: cursor, desiredKeys: ["CD_entityName"], resultsLimit: 400)
                }
                guard count > 0 else { continue }
                let entity = String(type.name.dropFirst(CoreDataLens.fieldPrefix.count))
                relationships.append(Relationship(name: String(field.name.dropFirst(CoreDataLens.fieldPrefix.count)),
                                                  kind: .inverse(entity: entity), related: related, count: count))
            }
        }
        return relationships
    }

    /// The `CDMR` links of the zone that touch the record, grouped by the record's own
    /// relationship. CloudKit's queries have no "ends with", so the join records are read
    /// whole (only their three fields).
    private static func manyToMany(_ record: Record, in database: any CloudDatabaseService) throws -> [Relationship] {
        let zoneID = record.recordID.zoneID
        let keys = ["CD_entityNames", "CD_relationships", "CD_recordNames"]
        var byName: [String: Relationship] = [:]
        var page = try database.records(matching: Query(recordType: CoreDataLens.joinRecordType), inZoneWith: zoneID, desiredKeys: keys, resultsLimit: 1000)
        while true {
            for join in page.records {
                guard let link = CoreDataLens.link(join), let ends = link.ends(from: record.recordName) else { continue }
                var relationship = byName[ends.own.relationship] ?? Relationship(name: ends.own.relationship, kind: .manyToMany, related: [], count: 0)
                relationship.count += 1
                if relationship.related.count < shownLimit {
                    relationship.related.append(Related(recordName: ends.other.recordName, entity: ends.other.entity))
                }
                byName[ends.own.relationship] = relationship
            }
            guard let cursor = page.cursor else { break }
            page = try database.records(continuingMatchFrom: cursor, desiredKeys: keys, resultsLimit: 1000)
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// Fields that are mirroring's bookkeeping, never relationships.
    private static let bookkeeping: Set<String> = ["CD_entityName", "CD_moveReceipt"]

    private static func entityName(_ record: Record) -> String {
        if case .string(let name)? = record.fields["CD_entityName"], !name.isEmpty { return name }
        return String(record.recordType.dropFirst(CoreDataLens.fieldPrefix.count))
    }
}
