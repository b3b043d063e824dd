import Foundation
import StratusCloud
import StratusEngine

/// The server's credentials, request log and push tokens in a memory store's tables.
struct MemoryServerStorage: ServerStorage {
    let db: MemoryTransaction

    func insertCredential(digest: String, kind: String, container: String, user: String?, createdAt: Int64) throws {
        db.tables.credentials.append(MemoryTables.Credential(digest: digest, kind: kind, container: container, user: user))
    }

    func credentialUser(digest: String, kind: String, container: String, anyContainer: String) throws -> String?? {
        db.tables.credentials.first { $0.digest == digest && $0.kind == kind && ($0.container == container || $0.container == anyContainer) }.map(\.user)
    }

    func insertServerKey(keyID: String, container: String, publicKeyPEM: String, user: String, createdAt: Int64) throws {
        db.tables.serverKeys.append(MemoryTables.ServerKey(keyID: keyID, container: container, publicKeyPEM: publicKeyPEM, user: user))
    }

    func serverKey(keyID: String, container: String, anyContainer: String) throws -> (publicKeyPEM: String, user: String)? {
        db.tables.serverKeys.first { $0.keyID == keyID && ($0.container == container || $0.container == anyContainer) }.map { ($0.publicKeyPEM, $0.user) }
    }

    func appendToRequestLog(_ entries: [RequestLogEntry], keeping: Int64, keepingBodies: Int64) throws {
        for var entry in entries {
            db.tables.lastRequestLogID += 1
            entry.id = db.tables.lastRequestLogID
            // Kept to the millisecond, as a store keeps times.
            entry.time = Date(timeIntervalSince1970: Double(Int64(entry.time.timeIntervalSince1970 * 1000)) / 1000)
            // Kept apart, as a store keeps them: the log's entries come without them.
            if let bodies = entry.bodies { db.tables.requestBodies[entry.id] = bodies }
            entry.bodies = nil
            db.tables.requestLog.append(entry)
        }
        let oldestKept = db.tables.lastRequestLogID - keeping
        db.tables.requestLog.removeAll { $0.id <= oldestKept }
        let kept = Set(db.tables.requestBodies.keys.sorted().suffix(Int(keepingBodies)))
        db.tables.requestBodies = db.tables.requestBodies.filter { kept.contains($0.key) }
    }

    func requestBodies(of id: Int64) throws -> RequestBodies? { db.tables.requestBodies[id] }

    func requestLog(after id: Int64?, limit: Int) throws -> [RequestLogEntry] {
        guard let id else { return Array(db.tables.requestLog.suffix(limit)) }
        return Array(db.tables.requestLog.filter { $0.id > id }.prefix(limit))
    }

    func insertPushToken(_ token: String, container: String, user: String, apnsEnvironment: String, createdAt: Int64) throws -> PushToken {
        guard db.tables.pushTokens[token] == nil else {
            throw CloudKitError(.constraintViolation, "The push token exists already.")
        }
        let start = db.tables.lastNotificationSequence
        let pushToken = PushToken(token: token, container: container, user: user, apnsEnvironment: apnsEnvironment, isRegistered: false,
                                  deliveredSequence: start, startSequence: start)
        db.tables.pushTokens[token] = pushToken
        return pushToken
    }

    func registerPushToken(_ token: String, user: String) throws -> Bool {
        guard let pushToken = db.tables.pushTokens[token], pushToken.user == user else { return false }
        db.tables.pushTokens[token] = PushToken(token: token, container: pushToken.container, user: user, apnsEnvironment: pushToken.apnsEnvironment,
                                                isRegistered: true, deliveredSequence: pushToken.deliveredSequence, startSequence: pushToken.startSequence)
        return true
    }

    func pushToken(_ token: String) throws -> PushToken? { db.tables.pushTokens[token] }

    func markPushDelivered(_ token: String, upTo sequence: Int64) throws {
        guard let pushToken = db.tables.pushTokens[token] else { return }
        db.tables.pushTokens[token] = PushToken(token: token, container: pushToken.container, user: pushToken.user, apnsEnvironment: pushToken.apnsEnvironment,
                                                isRegistered: pushToken.isRegistered, deliveredSequence: max(pushToken.deliveredSequence, sequence),
                                                startSequence: pushToken.startSequence)
    }
}
