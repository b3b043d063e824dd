import Foundation
import StratusModel
import StratusCloud

/// Checks a record against CloudKit's rules and the store's schema before it is written, and
/// lists the schema additions a development store makes for it.
struct RecordValidator {
    let environment: StoreEnvironment
    let catalog: SchemaCatalog
    /// Additions earlier records of the same batch made, not yet in the catalog.
    var pendingTypes: Set<String> = []
    var pendingFields: [String: [String: SchemaField]] = [:]

    init(environment: StoreEnvironment, catalog: SchemaCatalog) {
        self.environment = environment
        self.catalog = catalog
    }

    static func identifierProblem(_ name: String, what: String) -> String? {
        guard !name.isEmpty else { return "A \(what) cannot be empty." }
        // ASCII letters, digits and '_' only: checked on bytes, in place (most names are
        // stored inside the string itself), as every saved field name passes here.
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        var text = name
        let valid = text.withUTF8 { utf8 in
            isLetter(utf8[0]) && utf8.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
        }
        if !valid { return "'\(name)' is not a valid \(what): use letters, digits and '_', starting with a letter." }
        if name.utf8.count > 255 { return "The \(what) '\(name.prefix(20))...' is longer than 255 characters." }
        return nil
    }

    /// Whether a record breaks a rule that needs no schema: its name, its type's and fields'
    /// names, or a value (a non-finite double, a location off the Earth ...). An import asks on
    /// its reading thread, so the writer checks only the schema for the records that pass.
    static func passesSchemaFreeChecks(recordName: String, recordType: String, fields: [String: FieldValue]) -> Bool {
        RecordID.problem(withName: recordName) == nil && identifierProblem(recordType, what: "record type name") == nil
            && fields.allSatisfy { identifierProblem($0.key, what: "field name") == nil && valueProblem($0.value, field: $0.key) == nil }
    }

    /// Validates `fields` of a record of `recordType`; on success records the schema additions
    /// it needs (development) so later records of the batch see them. `schemaFreeChecked`: the
    /// record passed ``passesSchemaFreeChecks(recordName:recordType:fields:)``, so only the
    /// schema is checked (any problem left is a schema one, reported for the same field).
    mutating func validate(recordType: String, fields: [String: FieldValue], schemaFreeChecked: Bool = false) -> CloudKitError? {
        // CloudKit's share type and its system fields break the identifier rules on purpose.
        let isShare = ShareRecordType.isShareType(recordType)
        if !schemaFreeChecked, !isShare, let problem = RecordValidator.identifierProblem(recordType, what: "record type name") {
            return CloudKitError(.invalidArguments, problem)
        }
        let existing = catalog.type(named: recordType)?.schema
        let typeKnown = existing != nil || pendingTypes.contains(recordType)
        if !typeKnown, environment == .production, !isShare {
            return CloudKitError(.invalidArguments, "Cannot create new type '\(recordType)' in production schema; deploy a schema that declares it first.",
                                 reason: .typeNotCreatableInProduction(recordType: recordType))
        }
        let pending = pendingFields[recordType]
        // The field's problem, or success with the field it adds to the schema (if any).
        func check(_ name: String, _ value: FieldValue) -> Result<SchemaField?, CloudKitError> {
            let shareField = isShare ? ShareRecordType.systemFields[name] : nil
            if !schemaFreeChecked, shareField == nil, let problem = RecordValidator.identifierProblem(name, what: "field name") {
                return .failure(CloudKitError(.invalidArguments, problem))
            }
            if !schemaFreeChecked, let problem = RecordValidator.valueProblem(value, field: name) {
                return .failure(CloudKitError(.invalidArguments, problem))
            }
            if let declared = existing?.fields[name] ?? pending?[name] {
                if declared.type != value.type {
                    return .failure(CloudKitError(.invalidArguments, "Invalid value for field '\(name)' of '\(recordType)': the schema says \(declared.type) but the record holds \(value.type)."))
                }
                return .success(nil)
            }
            if environment == .production, shareField == nil {
                return .failure(CloudKitError(.invalidArguments, "Cannot create or modify field '\(name)' in record type '\(recordType)' in production schema; declare it first."))
            }
            return .success(SchemaField(name: name, type: value.type, indexes: value.type.defaultIndexes))
        }
        var additions: [SchemaField] = []
        // Fields are checked in any order; only a record with a problem pays for sorting, so
        // the problem reported is always that of the first field by name.
        for (name, value) in fields {
            switch check(name, value) {
            case .success(let addition): if let addition { additions.append(addition) }
            case .failure:
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    if case .failure(let error) = check(name, value) { return error }
                }
            }
        }
        if existing == nil { pendingTypes.insert(recordType) }
        for field in additions { pendingFields[recordType, default: [:]][field.name] = field }
        return nil
    }

    static func valueProblem(_ value: FieldValue, field: String) -> String? {
        switch value {
        case .double(let number) where !number.isFinite:
            return "Field '\(field)' holds \(number); CloudKit stores only finite doubles."
        case .location(let location) where !location.isValid:
            return "Field '\(field)' holds a location off the Earth (latitude \(location.latitude), longitude \(location.longitude))."
        case .reference(let reference):
            if let problem = RecordID.problem(withName: reference.recordName) { return "Field '\(field)' references an invalid record name: \(problem)." }
        case .list(let base, let items):
            for item in items {
                if case .list = item { return "Field '\(field)' holds a list inside a list; CloudKit lists do not nest." }
                if item.type.base != base { return "Field '\(field)' is a LIST<\(base.rawValue)> but holds a \(item.type) element." }
                if let problem = valueProblem(item, field: field) { return problem }
            }
        default:
            break
        }
        return nil
    }
}
