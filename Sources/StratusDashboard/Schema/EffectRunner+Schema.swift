import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The Schema tab's effects: loading the schema, diffing it with a file or store, exporting it.
extension EffectRunner {
    /// Loads, diffs and exports the schema.
    func executeSchema(_ effect: SchemaEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .load(let job):
            post(.schema(.loaded(job: job, capture {
                let document = try? services.cloud.exportSchema()
                var grants: [String: [GrantDeclaration]] = [:]
                for type in document?.recordTypes ?? [] where !type.grants.isEmpty { grants[type.name] = type.grants }
                return SchemaSnapshot(types: try services.cloud.recordTypes(), environment: try services.cloud.environment(),
                                      roles: document?.roles ?? [], grants: grants, isReadOnly: services.cloud.localStore?.isReadOnly ?? false)
            })))

        case .diff(let job, let path):
            post(.schema(.diffed(job: job, capture {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CloudKitError(.invalidArguments, "Cannot read \(path).")
                }
                let file: SchemaDocument
                if data.prefix(16) == Data("SQLite format 3\0".utf8) {
                    // Another store (say the production one), read without opening it as one.
                    file = try localStore().exportSchema(ofStoreAt: path)
                } else {
                    do {
                        file = try SchemaDocument.parse(String(decoding: data, as: UTF8.self))
                    } catch let error as SchemaLanguageError {
                        throw CloudKitError(.invalidArguments, "\((path as NSString).lastPathComponent):\(error.line):\(error.column): \(error.message)")
                    }
                }
                return SchemaDiffSnapshot(path: path, changes: SchemaDiff(from: file, to: try services.cloud.exportSchema()).changes)
            })))

        case .export(let job, let path):
            post(.schema(.exported(job: job, capture {
                let text = try services.cloud.exportSchema().text
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw CloudKitError(.invalidArguments, "Could not write \(path): \(error.localizedDescription)")
                }
                return path
            })))
        }
    }
}
