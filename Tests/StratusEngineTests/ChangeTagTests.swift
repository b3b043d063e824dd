import Testing
@testable import StratusEngine

@Suite struct ChangeTagTests {
    @Test func tagsAreTenLowerCaseLettersAndDigitsAndDoNotRepeat() {
        let tags = (0..<10_000).map { _ in ChangeTag.make() }
        #expect(tags.allSatisfy { $0.count == 10 && $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) } })
        #expect(Set(tags).count == tags.count)
        // Every position takes every character: no digit of the draw is left unused.
        for position in 0..<10 {
            #expect(Set(tags.map { Array($0)[position] }).count == 36, "position \(position)")
        }
    }
}
