import PassFormat
import Testing

@testable import KioskCore

@Suite struct GuestIDTests {
    @Test func typedCodesAreNormalised() {
        let id = GuestID.random()
        #expect(GuestID(text: id.displayCode.lowercased()) == id)
        #expect(GuestID(text: id.text) == id)
        #expect(id.displayCode.count == 19)
    }

    @Test func randomIDsDiffer() {
        let ids = Set((0..<1000).map { _ in GuestID.random() })
        #expect(ids.count == 1000)
    }

    @Test func rejectsWrongLength() {
        #expect(GuestID(text: "ABCDEFGH") == nil)
        #expect(GuestID(bytes: [1, 2, 3]) == nil)
    }
}
