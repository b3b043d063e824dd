import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusCloud

/// Tokens and cursors whose checksum is right but whose contents are not what Stratus writes
/// (the checksum catches damage, not forgery): each is refused with a CloudKitError.
@Suite struct ForgedTokenTests {
    /// A real token's bytes with the payload replaced, checksum made right again.
    func forged(_ real: String, payload: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let bytes = try #require(FuzzTargets.base64URLDecode(real), sourceLocation: sourceLocation)
        var body = Array(bytes.prefix(18)) + payload
        let sum = FuzzTargets.fnv1a(body)
        for shift in stride(from: 24, through: 0, by: -8) { body.append(UInt8((sum >> UInt32(shift)) & 0xFF)) }
        return FuzzTargets.base64URLEncode(body)
    }

    static let maxVarint: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]

    func expectRefused(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch {
            #expect(error is CloudKitError, "\(type(of: error)): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func zoneTokenWithHugeNumbers() throws {
        let fixture = try FuzzTargets.fixture.get()
        let real = try fixture.database.currentToken(for: fixture.zone)
        // scope 2 (private), then zone row id, incarnation and sequence past Int64.max.
        for position in 0..<3 {
            var payload: [UInt8] = [2]
            for index in 0..<3 { payload += index == position ? Self.maxVarint : [1] }
            let token = try forged(real, payload: payload)
            expectRefused { _ = try fixture.database.recordZoneChanges(inZoneWith: fixture.zone, since: token) }
        }
    }

    @Test func databaseTokenWithHugeSequence() throws {
        let fixture = try FuzzTargets.fixture.get()
        let real = try fixture.database.currentDatabaseToken()
        let token = try forged(real, payload: [2] + Self.maxVarint)
        expectRefused { _ = try fixture.database.databaseChanges(since: token) }
    }
}
