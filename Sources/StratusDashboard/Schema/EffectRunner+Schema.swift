import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusStores

/// The Schema tab's effects: loading the schema, diffing it with a file or store, exporting it.
extension EffectRunner {
    /// Loads, diffs and exports the schema.
    func executeSchema(_ effect: Effect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .loadSchema(let job):
            post(.schemaLoaded(job: job, capture {
                let document = try? services.store.exportSchema()
                var grants: [String: [GrantDeclaration]] = [:]
                for type in document?.recordTypes ?? [] where !type.grants.isEmpty { grants[type.name] = type.grants }
                return SchemaSnapshot(types: try services.store.recordTypes(), environment: try services.store.environment,
                                      roles: document?.roles ?? [], grants: grants)
            }))

        case .diffSchema(let job, let path):
            post(.schemaDiffed(job: job, capture {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CloudKitError(.invalidArguments, "Cannot read \(path).")
                }
                let file: SchemaDocument
                if data.prefix(16) == Data("SQLite format 3\0".utf8) {
                    // Another store (say the production one), read without opening it as one; this
                    // store's own file is read through the store.
                    let samePath = URL(fileURLWithPath: path).standardizedFileURL == URL(fileURLWithPath: services.store.path).standardizedFileURL
                    file = samePath ? try services.store.exportSchema() : try StoreOpener.exportSchema(ofStoreAt: path)
                } else {
                    do {
                        file = try SchemaDocument.parse(String(decoding: data, as: UTF8.self))
                    } catch let error as SchemaLanguageError {
                        throw CloudKitError(.invalidArguments, "\((path as NSString).lastPathComponent):\(error.line):\(error.column): \(error.message)")
                    }
                }
                return SchemaDiffSnapshot(path: path, changes: SchemaDiff(from: file, to: try services.store.exportSchema()).changes)
            }))

        case .exportSchema(let job, let path):
            post(.schemaExported(job: job, capture {
                let text = try services.store.exportSchema().text
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw CloudKitError(.invalidArguments, "Could not write \(path): \(error.localizedDescription)")
                }
                return path
            }))

        default:
            break
        }
    }
}
