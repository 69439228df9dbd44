import Foundation
import KioskCore
import Testing

@testable import KioskStore

@Suite("Searching the roster")
struct SearchTests {
    private func names(_ store: SQLiteDoorStore, _ prefix: String, limit: Int = 10) throws -> [String] {
        try store.searchGuests(prefix: prefix, event: Fixture.event, limit: limit).map(\.name)
    }

    @Test("a name prefix matches, ignoring case, ordered by name", arguments: StoreKind.allCases)
    func namePrefix(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)

        #expect(try names(store, "anna") == ["Anna Smith"])
        #expect(try names(store, "ANNA S") == ["Anna Smith"])
        #expect(try names(store, "Anna  Smi") == ["Anna Smith"], "runs of spaces count as one")
        #expect(try names(store, "CARLA") == ["carla smithers"])
        #expect(try names(store, "annex").isEmpty)
        #expect(try names(store, "nna").isEmpty, "only prefixes, not infixes")
    }

    @Test("a prefix of any word of the name matches", arguments: StoreKind.allCases)
    func wordPrefix(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)

        // "smi" finds two surnames and an e-mail (smithd@), ordered by name, case-insensitively.
        #expect(try names(store, "smi") == ["Anna Smith", "carla smithers", "Dan Brown"])
        #expect(try names(store, "SMITHE") == ["carla smithers"])
        #expect(try names(store, "martin") == ["Émile Zola-Martin"], "hyphenated parts are words")
        #expect(try names(store, "zola") == ["Émile Zola-Martin"])
        #expect(try names(store, "smi", limit: 1) == ["Anna Smith"])
    }

    @Test("accents are ignored both ways", arguments: StoreKind.allCases)
    func accents(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)

        #expect(try names(store, "emile") == ["Émile Zola-Martin"])
        #expect(try names(store, "ÉMI") == ["Émile Zola-Martin"])
    }

    @Test("an e-mail prefix matches, ignoring case", arguments: StoreKind.allCases)
    func emailPrefix(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)

        #expect(try names(store, "bjones@") == ["Bob Jones"])
        #expect(try names(store, "carla@EXAMPLE") == ["carla smithers"])
        #expect(try names(store, "example").isEmpty, "the domain is not a prefix")
    }

    @Test("a renamed guest is found by the new name only", arguments: StoreKind.allCases)
    func renamed(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        var bob = Fixture.bob
        bob.name = "Robert Miller"
        try store.upsertGuests([bob])

        #expect(try names(store, "jones").isEmpty)
        #expect(try names(store, "mill") == ["Robert Miller"])
    }

    @Test("search keeps cancelled guests and other events apart", arguments: StoreKind.allCases)
    func cancelledAndEvents(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster + [Fixture.guest(20, "Anna Other", event: Fixture.otherEvent)])
        try store.cancelGuest(Fixture.anna.guest, event: Fixture.event, at: Fixture.time(1), reason: "refunded")

        let found = try store.searchGuests(prefix: "anna", event: Fixture.event, limit: 10)
        #expect(found.map(\.guest) == [Fixture.anna.guest])
        #expect(found.first?.status == .cancelled)
        #expect(try names(store, "").count == Fixture.roster.count, "an empty prefix lists the event by name")
    }

    @Test("a code prefix matches guest codes of the event, in code order", arguments: StoreKind.allCases)
    func codePrefix(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster + [Fixture.guest(1, "Elsewhere", event: Fixture.otherEvent)])
        let anna = Fixture.anna.guest.text

        #expect(try store.guests(codePrefix: String(anna.prefix(4)), event: Fixture.event, limit: 10) == [Fixture.anna])
        #expect(try store.guests(codePrefix: anna, event: Fixture.event, limit: 10) == [Fixture.anna])
        let all = try store.guests(codePrefix: "A", event: Fixture.event, limit: 10)
        #expect(all.map(\.guest) == Fixture.roster.map(\.guest).filter { $0.text.hasPrefix("A") }.sorted())
        #expect(all.count == Fixture.roster.count, "every fixture code starts with A (bytes below 8)")
        #expect(try store.guests(codePrefix: "A", event: Fixture.event, limit: 2).count == 2)
        #expect(try store.guests(codePrefix: "ZZ", event: Fixture.event, limit: 10).isEmpty)
    }
}

@Suite("Search keys")
struct SearchKeyTests {
    @Test("ASCII text folds as Foundation's case and diacritic folding does (the fast path)")
    func asciiFoldsAsFoundationDoes() {
        let printable = String((0x20..<0x7F).map { Character(UnicodeScalar(UInt8($0))) })
        for text in [printable, "Anna  SMITH", " Dan\tBrown\n", "Mary-Jane O'Neil", "SMITHD@Example.ORG", ""] {
            let foundation = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(SearchKey.fold(text) == foundation, "\(text)")
        }
        #expect(SearchKey.fold("Émile  ZOLA") == "emile zola")
    }

    @Test("text that folds to ASCII, and text that does not, fold as Foundation's folding and splitting do")
    func accentedFoldsAsFoundationDoes() {
        for text in [
            "Émile\u{00A0}Zoë", " Łukasz\tMüller ", "Nguyễn\r\nSøren", "STRAßE", "Ａｎｎａ", "e\u{301} \u{301}x",
            "Chloé\u{2003}O'Neil", "İnès", "日本 語",
        ] {
            let foundation = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(SearchKey.fold(text) == foundation, "\(text)")
        }
    }

    @Test("the model of name words splits ASCII and other keys at spaces and hyphens")
    func words() {
        #expect(NameWordsModel.words(ofFolded: "mary-jane o'neil 12") == ["mary", "jane", "o'neil", "12"])
        #expect(NameWordsModel.words(ofFolded: "-a--b ") == ["a", "b"])
        #expect(NameWordsModel.words(ofFolded: "łukasz-søren") == ["łukasz", "søren"])
    }
}
