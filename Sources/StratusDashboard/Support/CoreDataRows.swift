import StratusEngine
import StratusModel
import StratusCloud

/// The inspector through the Core Data / SwiftData lens: a `CD_` record as the object it mirrors
/// (its entity, attributes without the `CD_` prefix, `_ckAsset` companions folded into their
/// attribute), its relationships as its zone has them (`graph`: to-one, the inverse side of a
/// one-to-many, many-to-many; each object reached followable), a `CDMR` record as the
/// many-to-many link it holds (both ends followable).
enum CoreDataRows {
    /// The lens's rows for `record`, or nil when the lens has nothing to say about it. Until
    /// `graph` is read, every field shows as the attribute it may be.
    static func rows(_ record: Record, graph: CoreDataGraph? = nil) -> [InspectorRow]? {
        let system = [
            InspectorRow(name: "recordName", type: "STRING", value: record.recordName, isSystem: true),
            InspectorRow(name: "zone", type: "ZONE", value: record.recordID.zoneID.description, isSystem: true),
            InspectorRow(name: "modificationDate", type: "TIMESTAMP", value: record.modificationDate.map(ValueText.timestamp) ?? "", isSystem: true),
        ]
        if let entity = CoreDataLens.entity(record) {
            var rows = system
            let inherited = entity.name == entity.rootName ? "" : " (stored as \(entity.rootName))"
            rows.append(InspectorRow(name: "entity", type: "ENTITY", value: entity.name + inherited + (entity.hasMoveReceipt ? " · moved here" : ""),
                                     isSystem: true))
            let graph = graph?.recordName == record.recordName ? graph : nil
            for property in entity.properties {
                if let related = graph?.toOne(property.name) {
                    rows.append(InspectorRow(name: property.name, type: "TO-ONE", value: "→ \(related.entity) \(related.recordName)",
                                             isSystem: false, reference: related.recordName))
                } else {
                    let type = property.value.type.description + (property.isFromAsset ? " (asset)" : "")
                    rows.append(InspectorRow(name: property.name, type: type, value: ValueText.display(property.value), isSystem: false))
                }
            }
            rows += toMany(graph)
            if graph == nil { rows.append(InspectorRow(name: "relationships", type: "", value: "reading the zone…", isSystem: true)) }
            return rows
        }
        if let link = CoreDataLens.link(record) {
            return system + [
                InspectorRow(name: "link", type: "MANY-TO-MANY",
                             value: "\(link.first.entity).\(link.first.relationship) ↔ \(link.second.entity).\(link.second.relationship)", isSystem: true),
                InspectorRow(name: link.first.entity, type: "END", value: "→ " + link.first.recordName, isSystem: false, reference: link.first.recordName),
                InspectorRow(name: link.second.entity, type: "END", value: "→ " + link.second.recordName, isSystem: false, reference: link.second.recordName),
            ]
        }
        return nil
    }

    /// A row saying what a to-many relationship reaches, then one followable row per object.
    private static func toMany(_ graph: CoreDataGraph?) -> [InspectorRow] {
        var rows: [InspectorRow] = []
        for relationship in graph?.relationships ?? [] {
            let name: String, type: String, what: String
            switch relationship.kind {
            case .toOne: continue
            case .inverse(let entity):
                (name, type, what) = ("← \(entity).\(relationship.name)", "INVERSE", relationship.count == 1 ? "\(entity) object names this one" : "\(entity) objects name this one")
            case .manyToMany:
                let entity = relationship.related.first?.entity ?? "linked"
                (name, type, what) = (relationship.name, "TO-MANY", "\(entity) object\(relationship.count == 1 ? "" : "s") through CDMR")
            }
            let shown = relationship.related.count < relationship.count ? ", the first \(relationship.related.count) below" : ""
            rows.append(InspectorRow(name: name, type: type, value: "\(relationship.count.formatted()) \(what)\(shown)", isSystem: true))
            for related in relationship.related {
                rows.append(InspectorRow(name: "  " + name, type: related.entity, value: "→ " + related.recordName, isSystem: false, reference: related.recordName))
            }
        }
        return rows
    }
}
