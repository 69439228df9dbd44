import Foundation
import Testing

@testable import CheckinMail

@Suite struct MailValueTests {
    @Test func headerInjectionIsRefused() throws {
        let from = try MailAddress("a@checkin.example")
        let to = try MailAddress("b@guests.example")
        let id = try MessageID("issue-1-send@checkin.example")
        for subject in ["Pass\r\nBcc: victim@example.org", "Pass\nX: y", "Pass\rX: y", "Pass\u{0}"] {
            #expect(throws: MailError.controlCharacter(field: "Subject")) {
                try MailMessage(
                    from: from, to: [to], subject: subject, date: PassMail.date, messageID: id, text: "", html: "")
            }
        }
        #expect(throws: MailError.controlCharacter(field: "display name of b@guests.example")) {
            try MailAddress("b@guests.example", displayName: "Zoë\r\nBcc: victim@example.org")
        }
        #expect(throws: MailError.controlCharacter(field: "Message-ID")) {
            try MessageID("x@y\r\nBcc: victim@example.org")
        }
        #expect(throws: MailError.controlCharacter(field: "Content-ID")) {
            try InlineImage(contentID: "qr@x\nX: y", fileName: "pass.png", data: [])
        }
        #expect(throws: MailError.controlCharacter(field: "file name")) {
            try InlineImage(contentID: "qr@x", fileName: "pass.png\r\nX: y", data: [])
        }
        #expect(throws: MailError.invalidAddress("b@guests.example\r\nRCPT TO:<x@y>")) {
            try MailAddress("b@guests.example\r\nRCPT TO:<x@y>")
        }
    }

    @Test func addressesAreCheckedForTheEnvelope() throws {
        for good in [
            "zoe@guests.example", "first.last+tag@sub.example.org", "x@localhost", "o'neil@xn--bcher-kva.example",
        ] {
            #expect(try MailAddress(good).address == good)
        }
        for bad in [
            "", "zoe", "@guests.example", "zoe@", "zoe@@x", "zo e@x.example", "<zoe@x.example>", "zoë@x.example",
            "zoe@exämple.org", "a,b@x.example", "zoe@x.example>", "zoe@.example", "zoe@example.",
        ] {
            #expect(throws: MailError.invalidAddress(bad)) { try MailAddress(bad) }
        }
    }

    @Test func messageIDsAreLeftAtRight() throws {
        #expect(try MessageID("<issue-9-send@h>").value == "issue-9-send@h")
        #expect(
            try MessageID(local: "issue-9-send", domain: "checkin.example").description
                == "<issue-9-send@checkin.example>")
        for bad in ["", "no-at", "a@b@c", "@b", "a@", "a b@c", "<a@b", "a>@b", "a@b>"] {
            #expect(throws: MailError.invalidIdentifier(field: "Message-ID", value: bad)) { try MessageID(bad) }
        }
    }

    @Test func aMessageNeedsARecipientAndDistinctContentIDs() throws {
        let from = try MailAddress("a@checkin.example")
        let id = try MessageID("issue-1-send@checkin.example")
        #expect(throws: MailError.noRecipients) {
            try MailMessage(from: from, to: [], subject: "s", date: PassMail.date, messageID: id, text: "", html: "")
        }
        let image = try InlineImage(contentID: "qr@x", fileName: "pass.png", data: [1])
        #expect(throws: MailError.invalidIdentifier(field: "Content-ID (used twice)", value: "qr@x")) {
            try MailMessage(
                from: from, to: [from], subject: "s", date: PassMail.date, messageID: id, text: "", html: "",
                inlineImages: [image, image])
        }
        #expect(throws: MailError.invalidMediaType("image")) {
            try InlineImage(contentID: "qr@x", fileName: "pass.png", data: [], mediaType: "image")
        }
    }
}
