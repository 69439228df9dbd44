import CheckinCore
import CheckinMail
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PostgresTestSupport
import Testing
import WireAPI

/// The guest list and the device list in process, on every repository: search, walk-in, cancel, CSV import
/// all or nothing; an enrolment code shown once with its QR; revoke; every form refused without its token.
@Suite(.dropsTestDatabases) struct GuestAndDevicePageTests {
    static func multipart(csrf: String, csv: String) -> (HTTPFields, ByteBuffer) {
        multipart(csrf: csrf, csvBytes: Array(csv.utf8))
    }

    /// The upload form with the file's bytes as they are (not necessarily UTF-8).
    static func multipart(csrf: String, csvBytes: [UInt8]) -> (HTTPFields, ByteBuffer) {
        let boundary = "----test-boundary-7MA4YWxk"
        let head = """
            --\(boundary)\r
            Content-Disposition: form-data; name="csrf"\r
            \r
            \(csrf)\r
            --\(boundary)\r
            Content-Disposition: form-data; name="csv"; filename="guests.csv"\r
            Content-Type: text/csv\r
            \r

            """
        let tail = "\r\n--\(boundary)--\r\n"
        return (
            [.contentType: "multipart/form-data; boundary=\(boundary)"],
            ByteBuffer(bytes: Array(head.utf8) + csvBytes + Array(tail.utf8))
        )
    }

    /// The value of a hidden field of a page's form.
    static func hiddenValue(_ html: String, _ name: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Importing the same file twice adds nobody twice: the second preview says there is nothing to change. A
    /// file with changed values updates the guests it names by guest_id, or by e-mail without one, and says so
    /// before anything is written; a name-only line whose name is already here is flagged as a likely
    /// duplicate. Kiosks get the updated rows in their next delta.
    @Test(arguments: RepositoryFactory.all)
    func reimportingUpdatesByIdOrEmailAndNeverDuplicates(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let base = "/events/\(event.id.rawValue)/guests"
        let first = "name,email,party_size\nAda Lovelace,ada@example.org,1\nBob Byte,bob@example.org,3\nCy,,1\n"
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func preview(_ csv: String) async throws -> String {
                let (headers, body) = Self.multipart(csrf: csrf, csv: csv)
                return try await client.execute(
                    uri: base + "/import", method: .post, headers: headers + [.cookie: cookie], body: body
                ) { String(buffer: $0.body) }
            }
            func confirm(_ page: String) async throws -> String? {
                let file = try #require(Self.hiddenValue(page, "file"))
                return try await client.execute(
                    uri: base + "/import/confirm", method: .post, headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)&file=\(file)")
                ) { $0.headers[.location] }
            }
            _ = try await confirm(try await preview(first))
            #expect(try await h.repository.searchGuests(event: event.id, text: "", limit: 10).count == 3)
            let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 10).changeCursor

            // The same file again: Ada and Bob matched by e-mail, nothing to change; Cy has neither id nor e-mail
            // and would be added again, which the preview says.
            let again = try await preview(first)
            #expect(
                again.contains("1 new guest<") && again.contains("2 guests already as the file has them"), "\(again)")
            #expect(again.contains("id=\"import-duplicates\""), "\(again)")

            // Bob's party size changed, Ada named by her guest_id with a new name, Zoë new.
            let ada = try #require(try await h.repository.searchGuests(event: event.id, text: "Ada", limit: 1).first)
            let changed =
                "guest_id,name,email,party_size\n\(ada.id.text),Ada King,ada@example.org,1\n"
                + ",Bob Byte,BOB@example.org,4\n,Zoë,zoe@example.org,2\n"
            let page = try await preview(changed)
            #expect(page.contains("1 new guest<") && page.contains("2 guests updated (Ada King, Bob Byte)"), "\(page)")
            #expect(!page.contains("import-duplicates"))
            #expect(try await h.repository.searchGuests(event: event.id, text: "Ada King", limit: 1).isEmpty)
            let done = try await confirm(page)
            #expect(done == base + "?notice=imported&count=1&updated=2&unchanged=0")
            #expect(
                try await client.execute(uri: done ?? "", method: .get, headers: [.cookie: cookie]) {
                    String(buffer: $0.body)
                }.contains("1 guest imported, 2 updated."))
            let all = try await h.repository.searchGuests(event: event.id, text: "", limit: 10)
            #expect(all.map(\.name).sorted() == ["Ada King", "Bob Byte", "Cy", "Zoë"])
            #expect(all.first { $0.name == "Bob Byte" }?.partySize == 4)
            let delta = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 10)
            #expect(Set(delta.guests.map(\.name)) == ["Ada King", "Bob Byte", "Zoë"], "kiosks learn the updates")
        }
    }

    /// A file exported as Latin-1 ("Zoë" with its ë as the single byte 0xEB): the reader must see its bytes and
    /// refuse it with the line, on the organizer's page and through the admin API; decoded to a String first it
    /// became "Zo\u{FFFD}" and was imported with the name altered.
    @Test(arguments: RepositoryFactory.all)
    func aLatin1UploadIsRefusedWithItsLineNotImportedAltered(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let latin1: [UInt8] =
            Array("name,email\nAda,ada@example.org\nZo".utf8) + [0xEB] + Array(",zoe@example.org\n".utf8)
        let token = try await h.admin.newAdminToken()
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let (headers, body) = Self.multipart(csrf: csrf, csvBytes: latin1)
            try await client.execute(
                uri: "/events/\(event.id.rawValue)/guests/import", method: .post, headers: headers + [.cookie: cookie],
                body: body
            ) { response in
                let page = String(buffer: response.body)
                #expect(response.status == .unprocessableContent)
                #expect(page.contains("Line 3:") && page.contains("UTF-8"), "\(page)")
            }
            try await client.execute(
                uri: "/v1/admin/events/\(event.id.rawValue)/guests/import", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "text/csv"], body: ByteBuffer(bytes: latin1)
            ) { response in
                let answer = String(buffer: response.body)
                #expect(response.status == .unprocessableContent)
                #expect(answer.contains(#""line":3"#) && answer.contains("UTF-8"), "\(answer)")
            }
        }
        #expect(try await h.repository.searchGuests(event: event.id, text: "", limit: 10).isEmpty)
    }

    /// A guest's fields are checked by the server on every way in, not only by the browser's form: an address a
    /// pass cannot be sent to ("zed@") and a 5,000-character name are refused on the organizer's page, through
    /// the admin API and in a CSV import, each naming the field; nothing is added and no pass is queued.
    @Test func badFieldsAreRefusedOnEveryPathNotOnlyInTheBrowser() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let token = try await h.admin.newAdminToken()
        let longName = String(repeating: "N", count: 5000)
        let base = "/events/\(event.id.rawValue)/guests"
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let badEmail = "is not one a pass can be sent to"
            for (form, says) in [("name=Zed&email=zed%40", badEmail), ("name=\(longName)", "5000")] {
                try await client.execute(
                    uri: base, method: .post, headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)&\(form)")
                ) { response in
                    #expect(response.status == .unprocessableContent)
                    #expect(String(buffer: response.body).contains(says), "\(form.prefix(40))")
                }
            }
            for (json, says) in [
                (#"{"name":"Zed","email":"zed@"}"#, badEmail), (#"{"name":"\#(longName)"}"#, "5000"),
            ] {
                try await client.execute(
                    uri: "/v1/admin/events/\(event.id.rawValue)/guests", method: .post,
                    headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                    body: ByteBuffer(string: json)
                ) { response in
                    #expect(response.status.code / 100 == 4, "\(response.status)")
                    #expect(String(buffer: response.body).contains(says), "\(String(buffer: response.body))")
                }
            }
            let (headers, body) = Self.multipart(
                csrf: csrf, csv: "name,email\nAda,ada@example.org\nZed,zed@\n\(longName),\n")
            try await client.execute(
                uri: base + "/import", method: .post, headers: headers + [.cookie: cookie], body: body
            ) { response in
                let page = String(buffer: response.body)
                #expect(response.status == .unprocessableContent)
                #expect(page.contains("Line 3:") && page.contains("zed@") && page.contains("Line 4:"), "\(page)")
            }
        }
        #expect(try await h.repository.searchGuests(event: event.id, text: "", limit: 10).isEmpty)
    }

    @Test(arguments: RepositoryFactory.all)
    func guestsAreSearchedAddedCancelledAndImportedAllOrNothing(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 3)
        try await h.organizer(of: tenant)
        let base = "/events/\(event.id.rawValue)/guests"
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func get(_ uri: String) async throws -> String {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) {
                    String(buffer: $0.body)
                }
            }
            func post(_ uri: String, _ body: String) async throws -> (HTTPResponse.Status, String?) {
                try await client.execute(
                    uri: uri, method: .post, headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: body)
                ) { ($0.status, $0.headers[.location]) }
            }
            // Search by a word of the name, and by the start of the code with a dash.
            #expect(try await get(base + "?q=guest+1").contains(guests[1].id.displayCode))
            let code = guests[2].id.displayCode
            let byCode = try await get(base + "?q=\(code.prefix(6).lowercased())")
            #expect(byCode.contains("1 guest matches") && byCode.contains(guests[2].name), "\(byCode)")

            // A walk-in.
            let (added, location) = try await post(base, "csrf=\(csrf)&name=Walk+In&partySize=2&arrivalAlert=VIP")
            #expect(added == .seeOther)
            let walkIn = try #require(
                try await h.repository.searchGuests(event: event.id, text: "Walk In", limit: 5).first)
            #expect(walkIn.partySize == 2 && walkIn.arrivalAlert == "VIP")
            #expect(location == "\(base)?q=\(walkIn.id.text)&notice=added")
            #expect(try await get(location ?? "").contains("Guest added"))
            #expect(try await post(base, "csrf=\(csrf)&name=").0 == .unprocessableContent)
            #expect(try await post(base, "name=Forged").0 == .forbidden)

            // Cancel.
            #expect(try await post("\(base)/\(guests[0].id.text)/cancel", "csrf=\(csrf)").0 == .seeOther)
            #expect(try await h.repository.guest(guests[0].id, event: event.id)?.status == .cancelled)
            #expect(try await post("\(base)/\(guests[1].id.text)/cancel", "csrf=nope").0 == .forbidden)
            #expect(try await h.repository.guest(guests[1].id, event: event.id)?.status == .active)

            // Import: a bad line reports its number and imports nothing; a good file imports all.
            let (headers, bad) = Self.multipart(
                csrf: csrf, csv: "name,email,party_size\nAda,ada@example.org,1\nBob,bob@example.org,many\n")
            try await client.execute(
                uri: base + "/import", method: .post, headers: headers + [.cookie: cookie], body: bad
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("Line 3:"), "\(String(buffer: response.body))")
            }
            #expect(try await h.repository.searchGuests(event: event.id, text: "Ada", limit: 5).isEmpty)
            let (goodHeaders, good) = Self.multipart(
                csrf: csrf, csv: "name,email,party_size\nAda,ada@example.org,1\nBob,bob@example.org,3\n")
            // The upload is previewed first, nothing written; the preview's form imports it.
            let preview = try await client.execute(
                uri: base + "/import", method: .post, headers: goodHeaders + [.cookie: cookie], body: good
            ) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
            #expect(preview.contains("2 new guests") && preview.contains("0 guests updated"), "\(preview)")
            #expect(try await h.repository.searchGuests(event: event.id, text: "Ada", limit: 5).isEmpty)
            let file = try #require(Self.hiddenValue(preview, "file"))
            try await client.execute(
                uri: base + "/import/confirm", method: .post, headers: WebPageTests.form(cookie: cookie),
                body: ByteBuffer(string: "csrf=\(csrf)&file=\(file)")
            ) { response in
                #expect(response.status == .seeOther, "a reload does not import again")
                #expect(response.headers[.location] == base + "?notice=imported&count=2&updated=0&unchanged=0")
            }
            #expect(try await get(base + "?notice=imported&count=2").contains("2 guests imported."))
            #expect(try await h.repository.searchGuests(event: event.id, text: "Bob", limit: 5).first?.partySize == 3)
            // An upload that is not a form with a file: 400, nothing imported, not mistaken for a forgery.
            try await client.execute(
                uri: base + "/import", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=x", .cookie: cookie],
                body: ByteBuffer(string: "garbage")
            ) { response in #expect(response.status == .badRequest) }
            // A walk-in refused keeps what was typed.
            try await client.execute(
                uri: base, method: .post, headers: WebPageTests.form(cookie: cookie),
                body: ByteBuffer(string: "csrf=\(csrf)&name=Kept+Name&partySize=lots")
            ) { response in
                #expect(response.status == .unprocessableContent)
                let html = String(buffer: response.body)
                #expect(html.contains("is not a number") && html.contains("value=\"Kept Name\""), "\(html)")
            }
            // A malformed form body: 400, not a server error.
            #expect(try await post(base, "csrf=%zz&name=x").0 == .badRequest)
            let (forgedHeaders, forged) = Self.multipart(csrf: "forged", csv: "name\nEve\n")
            try await client.execute(
                uri: base + "/import", method: .post, headers: forgedHeaders + [.cookie: cookie], body: forged
            ) { response in #expect(response.status == .forbidden) }
            #expect(try await h.repository.searchGuests(event: event.id, text: "Eve", limit: 5).isEmpty)
        }
        let details = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.detail)
        // Who added whom, by the guest's id: the audit outlives the guest's name (PersonalDataRetention).
        let walkIn = try #require(try await h.repository.searchGuests(event: event.id, text: "Walk In", limit: 1).first)
        #expect(details.contains { $0.contains("by organizer ann@example.org") && $0.contains(walkIn.id.text) })
        #expect(!details.contains { $0.contains("Walk In") })
    }

    @Test(arguments: RepositoryFactory.all)
    func anEnrolmentCodeIsShownOnceAndARevokedDeviceIsRefused(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        try await h.organizer(of: tenant)
        let base = "/events/\(event.id.rawValue)"
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            // POST, redirect, GET: the code comes to the devices page in a short-lived cookie, so a reload of the
            // page sends no form again and makes no second code.
            let (location, carried) = try await client.execute(
                uri: base + "/enrolment-codes", method: .post, headers: WebPageTests.form(cookie: cookie),
                body: ByteBuffer(string: "csrf=\(csrf)")
            ) { response in
                #expect(response.status == .seeOther)
                return (response.headers[.location], WebPageTests.cookie(response, "__Host-checkin_new_code"))
            }
            #expect(location == base + "/devices#new-code")
            let (page, cleared) = try await client.execute(
                uri: base + "/devices", method: .get, headers: [.cookie: cookie + "; " + carried]
            ) { response in
                (
                    String(buffer: response.body),
                    response.headers[values: .setCookie].contains { $0.hasPrefix("__Host-checkin_new_code=;") }
                )
            }
            #expect(cleared, "shown once: the cookie is cleared")
            let start = try #require(page.range(of: "<code id=\"code-text\">"))
            let code = String(page[start.upperBound...].prefix { $0 != "<" })
            #expect(code.count == 19, "\(code)")
            #expect(page.contains("<svg") && page.contains("class=\"qr\""))
            #expect(page.contains("kioskctl enroll --config /etc/kiosk/kiosk.conf --server"), "\(page)")
            // A cookie made for another event, or tampered with, shows nothing.
            let other = try await client.execute(
                uri: base + "/devices", method: .get,
                headers: [.cookie: cookie + "; __Host-checkin_new_code=999.9999999999.\(code)"]
            ) { String(buffer: $0.body) }
            #expect(!other.contains(code))
            let made = try await h.repository.auditEntries(tenant: tenant.id, limit: 100).filter {
                $0.action == "enrolment_code_created"
            }
            #expect(made.count == 1)
            let later = try await client.execute(uri: base + "/devices", method: .get, headers: [.cookie: cookie]) {
                String(buffer: $0.body)
            }
            #expect(!later.contains(code), "the code is shown once")

            // A kiosk redeems it: the list says who made the code.
            let enrolment = try await client.execute(
                uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
                body: Harness.json(EnrolmentRequest(code: code, door: "West", kioskVersion: "1.0.0"))
            ) { response in try Harness.decode(Enrolment.self, response.body) }
            let listed = try await client.execute(uri: base + "/devices", method: .get, headers: [.cookie: cookie]) {
                String(buffer: $0.body)
            }
            #expect(listed.contains("West") && listed.contains("by ann@example.org"), "\(listed)")

            // Revoke: the list's button asks first, saying what cannot be undone; the page's form posts.
            let revoke = base + "/devices/\(enrolment.deviceId)/revoke"
            #expect(listed.contains("href=\"\(revoke)\"") && !listed.contains("action=\"\(revoke)\""), "\(listed)")
            let asked = try await client.execute(uri: revoke, method: .get, headers: [.cookie: cookie]) {
                ($0.status, String(buffer: $0.body))
            }
            #expect(asked.0 == .ok && asked.1.contains("Revoke the kiosk at West?"), "\(asked.1)")
            #expect(asked.1.contains("action=\"\(revoke)\"") && asked.1.contains("enrolled again"))
            #expect(try await h.repository.devices(event: event.id).allSatisfy { !$0.device.revoked })
            // Not without the token; then the device's token stops working at once.
            try await client.execute(
                uri: revoke, method: .post, headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: "")
            ) { response in #expect(response.status == .forbidden) }
            try await client.execute(
                uri: revoke, method: .post, headers: WebPageTests.form(cookie: cookie),
                body: ByteBuffer(string: "csrf=\(csrf)")
            ) { response in #expect(response.status == .seeOther) }
            try await client.execute(
                uri: "/v1/events/\(event.id.rawValue)", method: .get,
                headers: [.authorization: "Bearer \(enrolment.token)", CheckinHeader.kioskVersion: "1.0.0"]
            ) { response in #expect(response.status == .unauthorized) }
        }
    }

    /// A guest is edited from the list: the form holds their values, a bad one is refused with what was typed
    /// kept, a good edit is saved, audited and reaches kiosks in the next delta.
    @Test(arguments: RepositoryFactory.all)
    func aGuestIsEditedAndKiosksLearnIt(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 2)
        try await h.organizer(of: tenant)
        let guest = guests[0]
        let edit = "/events/\(event.id.rawValue)/guests/\(guest.id.text)/edit"
        let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 10).changeCursor
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let list = try await client.execute(
                uri: "/events/\(event.id.rawValue)/guests", method: .get, headers: [.cookie: cookie]
            ) { String(buffer: $0.body) }
            #expect(list.contains("href=\"\(edit)\""))
            let form = try await client.execute(uri: edit, method: .get, headers: [.cookie: cookie]) {
                String(buffer: $0.body)
            }
            #expect(form.contains("value=\"\(guest.name)\"") && form.contains(guest.id.displayCode), "\(form)")
            func post(_ body: String) async throws -> (HTTPResponse.Status, String, String?) {
                try await client.execute(
                    uri: edit, method: .post, headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)&" + body)
                ) { ($0.status, String(buffer: $0.body), $0.headers[.location]) }
            }
            let refused = try await post("name=Kept+Name&email=nope%40&partySize=2")
            #expect(refused.0 == .unprocessableContent && refused.1.contains("value=\"Kept Name\""), "\(refused.1)")
            #expect(try await h.repository.guest(guest.id, event: event.id)?.name == guest.name)
            let saved = try await post("name=Grace+Hopper&email=grace%40example.org&partySize=3&arrivalAlert=VIP")
            #expect(saved.0 == .seeOther && saved.2?.hasSuffix("notice=edited") == true)
            #expect(try await post("name=x&partySize=1").0 == .seeOther)
            #expect(
                try await post("name=Grace+Hopper&email=grace%40example.org&partySize=3&arrivalAlert=VIP").0
                    == .seeOther)
        }
        let now = try #require(try await h.repository.guest(guest.id, event: event.id))
        #expect(now.name == "Grace Hopper" && now.email == "grace@example.org" && now.partySize == 3)
        #expect(now.arrivalAlert == "VIP")
        let delta = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 10)
        #expect(delta.guests.map(\.id) == [guest.id] && delta.guests.first?.name == "Grace Hopper")
        let actions = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(actions.filter { $0 == "guest_edited" }.count == 3)
    }

    /// The guest list and the check-ins download as CSV a spreadsheet opens safely: UTF-8 with a byte-order
    /// mark, quoted where needed, and a cell that would run as a formula (a guest named "=HYPERLINK(...)")
    /// kept as text; only the organizer's own event.
    @Test func guestsAndCheckInsExportAsSpreadsheetSafeCSV() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let (_, otherEvent, _) = try await h.event(tenantName: "Other")
        try await h.organizer(of: tenant)
        let guests = try await h.repository.addGuests(
            [
                NewGuest(name: "=HYPERLINK(\"http://evil.example\",\"click\")", email: "eve@example.org"),
                NewGuest(name: "Zoë, the second", phone: "+1 555 0100"), NewGuest(name: "@SUM(A1)"),
            ], event: event.id, at: h.clock.now())
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let kiosk = try await client.enrol(h, event: event.id, door: "North")
            _ = try await client.upload(
                [kiosk.item(1, guest: guests[1], at: h.clock.now())], event: event.id, as: kiosk)
            func get(_ uri: String) async throws -> (HTTPResponse.Status, String?, [UInt8]) {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) {
                    ($0.status, $0.headers[.contentDisposition], Array($0.body.readableBytesView))
                }
            }
            let (status, disposition, bytes) = try await get("/events/\(event.id.rawValue)/export/guests.csv")
            #expect(status == .ok && disposition?.contains("attachment") == true)
            #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "a byte-order mark for Excel")
            let text = String(decoding: bytes.dropFirst(3), as: UTF8.self)
            let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.count == 4 && lines[0].hasPrefix("guest_id,code,name,email"), "\(lines)")
            #expect(text.contains(#""'=HYPERLINK(""http://evil.example"",""click"")""#), "\(text)")
            #expect(text.contains(",'@SUM(A1),") && text.contains(#""Zoë, the second""#))
            #expect(!text.contains(",=HYPERLINK") && !text.contains(",@SUM"))
            let zoe = try #require(lines.first { $0.contains("Zoë") })
            #expect(zoe.contains(",North,1") && zoe.contains("'+1 555 0100"), "\(zoe)")

            let scans = String(
                decoding: try await get("/events/\(event.id.rawValue)/export/check-ins.csv").2, as: UTF8.self)
            #expect(scans.contains("\(guests[1].id.text),check_in,applied,North"), "\(scans)")
            #expect(try await get("/events/\(otherEvent.id.rawValue)/export/guests.csv").0 == .notFound)
        }
        let actions = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(actions.filter { $0 == "exported" }.count == 2)
    }

    /// A guest checked in from the guest list: a scan from "organizer page" under the kiosks' rules, applied
    /// once however often its form is sent, delivered to kiosks in the next delta; its undo removes the
    /// check-in; a cancelled guest is refused with why.
    @Test(arguments: RepositoryFactory.all)
    func aGuestIsCheckedInFromThePageAndUndone(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 2)
        try await h.organizer(of: tenant)
        _ = try await h.repository.cancelGuest(guests[1].id, event: event.id, at: h.clock.now())
        let base = "/events/\(event.id.rawValue)/guests"
        let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 10).changeCursor
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let page = try await client.execute(uri: base, method: .get, headers: [.cookie: cookie]) {
                String(buffer: $0.body)
            }
            let nonce = try #require(Self.hiddenValue(page, "nonce"))
            #expect(page.contains("action=\"\(base)/\(guests[0].id.text)/check-in\""))
            #expect(!page.contains("action=\"\(base)/\(guests[1].id.text)/check-in\""), "not for a cancelled guest")
            func post(_ guest: Guest, _ action: String) async throws -> (HTTPResponse.Status, String?, String) {
                try await client.execute(
                    uri: "\(base)/\(guest.id.text)/\(action)", method: .post,
                    headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)&nonce=\(nonce)")
                ) { ($0.status, $0.headers[.location], String(buffer: $0.body)) }
            }
            let first = try await post(guests[0], "check-in")
            #expect(first.0 == .seeOther && first.1?.hasSuffix("notice=checked-in") == true)
            let again = try await post(guests[0], "check-in")
            #expect(again.0 == .seeOther, "the same form sent twice")
            let checkedIn = try #require(try await h.repository.guest(guests[0].id, event: event.id)?.checkIn)
            #expect(checkedIn.door == "Organizer page" && checkedIn.arrived == guests[0].partySize)
            #expect(try await h.repository.checkInEvents(event: event.id).count == 1, "applied once")
            let delta = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 10)
            #expect(delta.guests.first { $0.id == guests[0].id }?.checkIn?.door == "Organizer page")

            let refused = try await post(guests[1], "check-in")
            #expect(refused.0 == .unprocessableContent && refused.2.contains("the registration is cancelled"))

            let undone = try await post(guests[0], "undo-check-in")
            #expect(undone.0 == .seeOther && undone.1?.hasSuffix("notice=check-in-undone") == true)
            #expect(try await h.repository.guest(guests[0].id, event: event.id)?.checkIn == nil)
            let kinds = try await h.repository.checkInEvents(event: event.id).map(\.kind)
            #expect(kinds.filter { $0 == .revert }.count == 1)
            #expect(try await post(guests[0], "undo-check-in").0 == .seeOther, "sent twice: applied once")
        }
    }

    /// The guest list pages through every guest with the total, and sorts by name, status or arrival.
    @Test func theGuestListPagesWithATotalAndSorts() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, guests) = try await h.event(guests: 250)
        try await h.organizer(of: tenant)
        let byName = guests.sorted { ($0.name.lowercased(), $0.id.text) < ($1.name.lowercased(), $1.id.text) }
        _ = try await h.repository.cancelGuest(byName[0].id, event: event.id, at: h.clock.now())
        let base = "/events/\(event.id.rawValue)/guests"
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let north = try await client.enrol(h, event: event.id, door: "North")
            _ = try await client.upload(
                [north.item(1, guest: byName[200], at: h.clock.now())], event: event.id, as: north)
            func rows(_ query: String) async throws -> (String, [String]) {
                let html = try await client.execute(uri: base + query, method: .get, headers: [.cookie: cookie]) {
                    String(buffer: $0.body)
                }
                let ids = html.components(separatedBy: "<tr id=\"guest-").dropFirst().map { String($0.prefix(16)) }
                return (html, ids)
            }
            let (first, firstIDs) = try await rows("")
            #expect(first.contains("250 guests: 1–100, page 1 of 3"), "\(first)")
            #expect(firstIDs == byName.prefix(100).map(\.id.text))
            #expect(first.contains("href=\"\(base)?page=2\"") && !first.contains("rel=\"prev\""))
            let (last, lastIDs) = try await rows("?page=3")
            #expect(lastIDs.count == 50 && last.contains("201–250, page 3 of 3") && !last.contains("rel=\"next\""))
            #expect(try await rows("?page=99").1 == lastIDs, "past the end: the last page")
            #expect(try await rows("?sort=arrival").1.first == byName[200].id.text, "the latest arrival first")
            let byStatus = try await rows("?sort=status&page=3").1
            #expect(byStatus.last == byName[0].id.text, "cancelled last")
            #expect(try await rows("?sort=status").1.first == byName[1].id.text, "expected first, by name")
        }
    }

    /// Cancelling a registration asks first (the list's button is a link to a page that says whose and what
    /// follows); a cancelled row looks cancelled and has a Restore button; restoring reaches kiosks in the next
    /// delta as an active row, as the cancellation did as a tombstone.
    @Test(arguments: RepositoryFactory.all)
    func aCancellationIsConfirmedFirstAndCanBeUndone(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 2)
        try await h.organizer(of: tenant)
        let guest = guests[0]
        let base = "/events/\(event.id.rawValue)/guests"
        let cancel = "\(base)/\(guest.id.text)/cancel"
        let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 10).changeCursor
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func get(_ uri: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) {
                    ($0.status, String(buffer: $0.body))
                }
            }
            func post(_ uri: String) async throws -> String? {
                try await client.execute(
                    uri: uri, method: .post, headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)")
                ) { response in
                    #expect(response.status == .seeOther)
                    return response.headers[.location]
                }
            }
            let list = try await get(base).1
            #expect(list.contains("href=\"\(cancel)\"") && !list.contains("action=\"\(cancel)\""))
            let asked = try await get(cancel)
            #expect(asked.0 == .ok && asked.1.contains("Cancel \(guest.name)"), "\(asked.1)")
            #expect(asked.1.contains(guest.id.displayCode) && asked.1.contains("action=\"\(cancel)\""))
            #expect(
                try await h.repository.guest(guest.id, event: event.id)?.status == .active, "asking changes nothing")

            let cancelled = try #require(try await post(cancel))
            let page = try await get(cancelled).1
            #expect(page.contains("class=\"cancelled\"") && page.contains("pill-offline\">cancelled"), "\(page)")
            #expect(page.contains("\(base)/\(guest.id.text)/reinstate") && page.contains("Restore it below"))
            let tombstone = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 10)
            #expect(tombstone.guests.map(\.status) == [.cancelled])

            let restored = try #require(try await post("\(base)/\(guest.id.text)/reinstate"))
            let after = try await get(restored).1
            #expect(after.contains("Registration restored") && after.contains("href=\"\(cancel)\""), "\(after)")
            #expect(!after.contains("class=\"cancelled\""))
            let back = try await h.repository.rosterChanges(
                event: event.id, since: tombstone.changeCursor, limit: 10)
            #expect(back.guests.map(\.id) == [guest.id] && back.guests.map(\.status) == [.active])
            // The confirmation page of a guest already cancelled, or of none, does not ask.
            #expect(try await get("\(base)/AAAAAAAAAAAAAAAA/cancel").0 == .notFound)
        }
        let actions = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(actions.contains("guest_cancelled") && actions.contains("guest_reinstated"))
    }

    /// Offline alerts set to an e-mail address on a server with no mail relay are saved with a warning that
    /// they cannot be sent and what to do; a server with a relay shows none.
    @Test func emailAlertsWithoutAMailRelayAreWarnedOf() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, _) = try await h.event()
        try await h.organizer(of: tenant)
        let base = "/events/\(event.id.rawValue)/devices"
        let folder = NSTemporaryDirectory() + "alerts-\(UUID().uuidString)"
        let relay = try SMTPRelay(host: "127.0.0.1", port: 25, security: .none)
        let withRelay = PassIssuanceSteps(
            repository: h.repository, images: PassImageStore(directory: folder + "/passes"),
            publicURL: "https://checkin.example.org",
            mailer: RelayMailer(relay: relay, from: try MailAddress("checkin@example.org")))
        for (issuance, warned) in [(nil, true), (withRelay, false)] as [(PassIssuanceSteps?, Bool)] {
            try await h.app(issuance: issuance).test(.router) { client in
                let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
                try await client.execute(
                    uri: "/events/\(event.id.rawValue)/offline-alerts", method: .post,
                    headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)&email=ops%40example.org&webhookURL=")
                ) { response in #expect(response.status == .seeOther) }
                let page = try await client.execute(uri: base, method: .get, headers: [.cookie: cookie]) {
                    String(buffer: $0.body)
                }
                #expect(page.contains("id=\"alerts-mail-warning\"") == warned, "\(page)")
                #expect(page.contains("--smtp-url") == warned)
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func anotherTenantsGuestOrDeviceUnderOnesOwnEventIsNotFoundAndAudited(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let (_, otherEvent, otherGuests) = try await h.event(tenantName: "Other")
        let secondEvent = try await h.admin.createEvent(
            EventInput(name: "After party", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600)),
            tenant: tenant.id)
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let foreignDevice = try await client.enrol(h, event: otherEvent.id, door: "Theirs")
            let base = "/events/\(event.id.rawValue)"
            try await client.execute(
                uri: "\(base)/guests/\(otherGuests[0].id.text)/cancel", method: .post,
                headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: "csrf=\(csrf)")
            ) { response in #expect(response.status == .notFound) }
            try await client.execute(
                uri: "\(base)/devices/\(foreignDevice.id)/revoke", method: .post,
                headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: "csrf=\(csrf)")
            ) { response in #expect(response.status == .notFound) }
            #expect(try await h.repository.guest(otherGuests[0].id, event: otherEvent.id)?.status == .active)
            #expect(try await h.repository.device(id: foreignDevice.id)?.revoked == false)

            // A kiosk moved to the tenant's other event (a code replacing it) is that event's, not this one's.
            let moved = try await client.enrol(h, event: event.id, door: "Mover")
            h.clock.advance(by: 60)
            let code = try await h.admin.createEnrolmentCode(event: secondEvent.id, replacesDevice: moved.id).code
            try await client.execute(
                uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
                body: Harness.json(EnrolmentRequest(code: code, door: "Mover", kioskVersion: "1.0.0"))
            ) { response in #expect(response.status == .ok) }
            #expect(try await h.repository.devices(event: event.id).isEmpty)
            #expect(try await h.repository.devices(event: secondEvent.id).map(\.device.id) == [moved.id])
        }
        let audit = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(audit.filter { $0 == "not_found" }.count == 2)
    }
}
