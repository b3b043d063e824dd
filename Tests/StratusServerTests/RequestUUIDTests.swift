@testable import StratusServer
import Testing

/// The `uuid` of every answer: a random version 4 UUID in lowercase, as iCloud writes it.
@Suite struct RequestUUIDTests {
    @Test func isALowercaseVersionFourUUIDAndNeverRepeats() {
        let made = (0..<2_000).map { _ in RequestUUID.make() }
        #expect(Set(made).count == made.count)
        for uuid in made {
            let groups = uuid.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(uuid)")
            #expect(uuid.allSatisfy { "0123456789abcdef-".contains($0) }, "\(uuid)")
            #expect(groups[2].first == "4", "\(uuid)")
            #expect(groups.count == 5 && "89ab".contains(groups[3].first!), "\(uuid)")
        }
        // Every hexadecimal digit turns up in the random positions.
        #expect(Set(made.joined().filter { $0 != "-" }).count == 16)
    }
}
