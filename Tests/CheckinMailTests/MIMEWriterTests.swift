import Foundation
import Testing

@testable import CheckinMail

@Suite struct MIMEWriterTests {
    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
    }

    @Test func everyLineEndsInCRLFAndNoLineIsLongerThan78() throws {
        let bytes = MIMEWriter.write(try PassMail.make())
        // No bare LF or CR: every LF follows a CR and every CR precedes an LF.
        for (index, byte) in bytes.enumerated() where byte == 10 { #expect(index > 0 && bytes[index - 1] == 13) }
        for (index, byte) in bytes.enumerated() where byte == 13 {
            #expect(index + 1 < bytes.count && bytes[index + 1] == 10)
        }
        for line in Self.lines(bytes) { #expect(line.utf8.count <= 78, "\(line)") }
        #expect(bytes.allSatisfy { $0 < 128 }, "8-bit bytes in a 7-bit message")
    }

    @Test func theStructureIsAlternativeOfTextAndRelatedHTMLWithTheImage() throws {
        let message = try PassMail.make()
        let text = String(decoding: MIMEWriter.write(message), as: UTF8.self)
        let tag = MIMEWriter.fingerprint(message.messageID.value)
        let expectedOrder = [
            "Content-Type: multipart/alternative; boundary=\"=_alt_\(tag)\"",
            "--=_alt_\(tag)\r\nContent-Type: text/plain; charset=utf-8",
            "--=_alt_\(tag)\r\nContent-Type: multipart/related; boundary=\"=_rel_\(tag)\";\r\n type=\"text/html\"",
            "--=_rel_\(tag)\r\nContent-Type: text/html; charset=utf-8",
            "--=_rel_\(tag)\r\nContent-Type: image/png; name=\"pass.png\"",
            "Content-ID: <pass-qr@checkin.example>",
            "Content-Disposition: inline; filename=\"pass.png\"",
            "--=_rel_\(tag)--",
            "--=_alt_\(tag)--",
        ]
        var position = text.startIndex
        for piece in expectedOrder {
            let found = try #require(text.range(of: piece, range: position..<text.endIndex), "missing \(piece)")
            position = found.upperBound
        }
        #expect(text.contains("Message-ID: <issue-4711-send-pass@checkin.example>\r\n"))
        #expect(text.contains("Date: Tue, 01 Dec 2026 18:00:00 +0000\r\n"))
        #expect(text.contains("MIME-Version: 1.0\r\n"))
    }

    @Test func theBoundariesOccurOnlyAsDelimiters() throws {
        // Content that tries to look like a boundary line: QP encodes `=`, so it cannot.
        let tag = MIMEWriter.fingerprint("issue-4711-send-pass@checkin.example")
        let message = try MailMessage(
            from: MailAddress("a@checkin.example"), to: [MailAddress("b@guests.example")], subject: "x",
            date: PassMail.date, messageID: MessageID("issue-4711-send-pass@checkin.example"),
            text: "--=_alt_\(tag)\n--=_alt_\(tag)--\n", html: "<p>--=_rel_\(tag)</p>",
            inlineImages: [InlineImage(contentID: "i@x", fileName: "i.png", data: Array("--=_rel_\(tag)".utf8))])
        let lines = Self.lines(MIMEWriter.write(message))
        let delimiterLines = lines.filter { $0.contains("=_alt_") || $0.contains("=_rel_") }
        #expect(
            delimiterLines == [
                "Content-Type: multipart/alternative; boundary=\"=_alt_\(tag)\"", "--=_alt_\(tag)", "--=_alt_\(tag)",
                "Content-Type: multipart/related; boundary=\"=_rel_\(tag)\";", "--=_rel_\(tag)",
                "--=_rel_\(tag)", "--=_rel_\(tag)--", "--=_alt_\(tag)--",
            ])
    }

    @Test func theSameMessageGivesTheSameBytesAndAnotherStepOtherBoundaries() throws {
        let first = MIMEWriter.write(try PassMail.make())
        #expect(MIMEWriter.write(try PassMail.make()) == first)
        let other = MIMEWriter.write(try PassMail.make(step: "resend-1"))
        #expect(
            MIMEWriter.fingerprint("issue-4711-send-pass@checkin.example")
                != MIMEWriter.fingerprint("issue-4711-resend-1@checkin.example"))
        #expect(other != first)
    }

    @Test func nonASCIISubjectAndNameBecomeEncodedWordsThatDecodeBack() throws {
        let lines = Self.lines(MIMEWriter.write(try PassMail.make()))
        let subject = try #require(Self.header("Subject", in: lines))
        let to = try #require(Self.header("To", in: lines))
        #expect(subject.hasPrefix("=?UTF-8?B?"))
        #expect(Self.decodeWords(subject) == "Your pass for Winter Gala – Zoë")
        #expect(to.hasSuffix(" <zoe@guests.example>"))
        #expect(Self.decodeWords(String(to.dropLast(" <zoe@guests.example>".count))) == "Zoë Martin")
        // Plain ASCII stays readable.
        #expect(Self.header("From", in: lines) == "Winter Gala <passes@checkin.example>")
    }

    @Test func aLongSubjectIsFoldedIntoWordsThatSplitNoCharacter() throws {
        let long = String(repeating: "Zoë’s pass 🎟️ ", count: 12)
        let lines = Self.lines(MIMEWriter.write(try PassMail.make(subject: long)))
        let subject = try #require(Self.header("Subject", in: lines))
        let words = subject.split(separator: " ").map(String.init)
        #expect(words.count > 3)
        for word in words {
            #expect(word.count <= 75)
            // Each word alone is valid UTF-8 (RFC 2047 6.3: no character split across words).
            let payload = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            let bytes = try #require(Data(base64Encoded: String(payload)))
            #expect(String(validating: bytes, as: UTF8.self) != nil, "\(word)")
        }
        #expect(Self.decodeWords(subject) == long)
    }

    @Test func aLongNameIsFoldedBeforeItsAddress() throws {
        let name = String(repeating: "Zoë ", count: 11) + "Martin"
        let address = try MailAddress("zoe.martin-long-address@guests.example", displayName: name)
        let header = HeaderText.addresses("To", [address, try MailAddress("b@x.example", displayName: "Bé")])
        let lines = header.components(separatedBy: "\r\n")
        for line in lines { #expect(line.utf8.count <= 78, "\(line)") }
        #expect(lines.contains(" <zoe.martin-long-address@guests.example>,"))
        #expect(lines.last == " =?UTF-8?B?QsOp?= <b@x.example>")
        let unfolded = header.replacingOccurrences(of: "\r\n", with: "")
        let firstName = unfolded.dropFirst("To: ".count).prefix { $0 != "<" }.trimmingCharacters(in: .whitespaces)
        #expect(Self.decodeWords(firstName) == name)
    }

    @Test func aDisplayNameWithSpecialsIsQuoted() throws {
        let address = try MailAddress("o@x.example", displayName: "O'Neil, \"Bob\"")
        #expect(HeaderText.mailbox(address, firstLineUsed: 4) == "\"O'Neil, \\\"Bob\\\"\" <o@x.example>")
    }

    @Test func quotedPrintableKeepsLinesShortAndEncodesWhatItMust() {
        let text = String(repeating: "é=ab ", count: 40) + " \n.leading dot\ntrailing tab\t\nplain"
        let encoded = TransferEncoding.quotedPrintable(text)
        let lines = encoded.components(separatedBy: "\r\n")
        for line in lines {
            #expect(line.utf8.count <= 76, "\(line)")
            #expect(!line.hasSuffix(" ") && !line.hasSuffix("\t"), "trailing white space: \(line)")
            #expect(!line.hasPrefix("."), "a line starting with a dot: \(line)")
            #expect(line.utf8.allSatisfy { $0 >= 32 && $0 < 127 })
        }
        #expect(encoded.contains("=C3=A9=3Dab"))
        #expect(lines.contains("=2Eleading dot"))
        #expect(lines.contains("trailing tab=09"))
        #expect(lines.last == "plain")
        #expect(Self.decodeQuotedPrintable(encoded) == text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func base64LinesAre76Characters() {
        let bytes = (0..<1000).map { UInt8($0 % 256) }
        let lines = TransferEncoding.base64(bytes).components(separatedBy: "\r\n")
        #expect(lines.dropLast().allSatisfy { $0.count == 76 })
        #expect(lines.last!.count <= 76)
        #expect(Data(base64Encoded: lines.joined()) == Data(bytes))
    }

    // MARK: helpers

    /// A header's value with its folding undone.
    static func header(_ name: String, in lines: [String]) -> String? {
        guard let start = lines.firstIndex(where: { $0.hasPrefix(name + ": ") }) else { return nil }
        var value = String(lines[start].dropFirst(name.count + 2))
        var next = start + 1
        while next < lines.count, lines[next].hasPrefix(" ") {
            value += lines[next]
            next += 1
        }
        return value
    }

    /// Decodes `=?UTF-8?B?…?=` words separated by folding white space (a reader joins adjacent words).
    static func decodeWords(_ value: String) -> String {
        var bytes: [UInt8] = []
        for word in value.split(separator: " ") {
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return value }
            bytes += Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "="), index + 2 < input.count,
                let value = UInt8(String(decoding: input[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
