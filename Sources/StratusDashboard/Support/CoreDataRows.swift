import StratusEngine
import StratusModel
import StratusCloud

/// The inspector through the Core Data / SwiftData lens: a `CD_` record as the object it mirrors
/// (its entity, attributes without the `CD_` prefix, `_ckAsset` companions folded into their
/// attribute, to-one relationships followable), a `CDMR` record as the many-to-many link it
/// holds (both ends followable).
enum CoreDataRows {
    /// The lens's rows for `record`, or nil when the lens has nothing to say about it.
    static func rows(_ record: Record) -> [InspectorRow]? {
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
            for property in entity.properties {
                let type = property.relatedRecordName != nil ? "TO-ONE" : property.value.type.description + (property.isFromAsset ? " (asset)" : "")
                let value = property.relatedRecordName.map { "→ " + $0 } ?? ValueText.display(property.value)
                rows.append(InspectorRow(name: property.name, type: type, value: value, isSystem: false, reference: property.relatedRecordName))
            }
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
}
