import Testing

@testable import KioskCore

@Suite struct KeyEventTests {
    func parse(_ p: inout KeyEvent.Parser, _ bytes: [UInt8]) -> [KeyEvent] { p.parse(bytes) }

    @Test func parsesTypingEnterBackspaceAndEscape() {
        var p = KeyEvent.Parser()
        let keys = p.parse(Array("ab\u{7F}\r".utf8) + [0x1B, UInt8(ascii: "x")])
        #expect(keys == [.character("a"), .character("b"), .backspace, .enter, .escape, .character("x")])
    }

    @Test func ctrlRRefreshesTheRosterAndCtrlUUndoes() {
        var p = KeyEvent.Parser()
        #expect(p.parse([0x12, 0x15, 0x01]) == [.refreshRoster, .undo])
    }

    @Test func dropsArrowKeys() {
        var p = KeyEvent.Parser()
        #expect(parse(&p, [0x1B, UInt8(ascii: "["), UInt8(ascii: "A"), UInt8(ascii: "z")]) == [.character("z")])
    }

    @Test func aLoneEscapeIsFlushed() {
        var p = KeyEvent.Parser()
        #expect(parse(&p, [0x1B]) == [])
        let flushed = p.flush()
        #expect(flushed == .escape)
    }

    @Test func readsUTF8Letters() {
        var p = KeyEvent.Parser()
        #expect(parse(&p, Array("é".utf8)) == [.character("é")])
    }
}
