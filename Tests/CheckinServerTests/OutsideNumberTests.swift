import Foundation
import TestSupport
import Testing

/// Numbers at the edges of their types, sent to the real `checkin-server` process over HTTP: each is answered and
/// the process stays up. Before they were parsed into ranges, each of these killed the whole server (every tenant)
/// with one request: a webhook's timestamp of -2^63 from anyone (`seconds - now`), and a page number of 2^63 - 1
/// from a signed-in organizer (`(page - 1) * limit`), and a new enrolment code's cookie whose time was 2^63 - 1
/// (`Int(seconds)` where the page showed it).
@Suite("checkin-server: numbers at the edges of their types")
struct OutsideNumberTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
    func oneRequestAtTheEdgeOfInt64DoesNotStopTheServer() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        let server = ChildProcess.productsFolder + "/checkin-server"
        // Every answer's status, one a line, then whether the process is still up: `alive` or `dead`.
        let script = """
            set -e
            '\(server)' create-tenant --name Acme >/dev/null 2>&1
            '\(server)' create-event --tenant 1 --name Gala --starts 2026-12-01T18:00:00Z --ends 2036-12-01T23:00:00Z >/dev/null 2>&1
            '\(server)' add-guest --event 1 --name 'Ada Lovelace' >/dev/null 2>&1
            echo 'a long enough password' | '\(server)' create-organizer --tenant 1 --email o@example.org --name O >/dev/null 2>&1
            '\(server)' serve --port 0 --port-file port >log 2>&1 &
            pid=$!
            for _ in $(seq 300); do [ -s port ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
            base=http://127.0.0.1:$(cat port)
            status() { curl -sS -o /dev/null -w '%{http_code}\\n' "$@"; }
            for t in -9223372036854775808 9223372036854775807 -1 99999999999999999999999; do
                status -X POST -H 'Content-Type: application/json' -H 'webhook-id: msg_1' \\
                    -H "webhook-timestamp: $t" -H 'webhook-signature: v1,AAAA' -d '{}' "$base/v1/webhooks/tenants/1/guests"
            done
            curl -sS -o /dev/null -D signed-in -H 'Cookie: __Host-checkin_signin=t0k3n' \\
                --data 'csrf=t0k3n&email=o%40example.org&password=a+long+enough+password' "$base/sign-in"
            session=$(sed -n 's/^[Ss]et-[Cc]ookie: __Host-checkin_session=\\([^;]*\\).*/\\1/p' signed-in)
            [ -n "$session" ] || { echo 'no session'; cat signed-in; }
            for page in 9223372036854775807 -9223372036854775808 99999999999999999999999 0 x; do
                status -H "Cookie: __Host-checkin_session=$session" "$base/events/1/guests?page=$page"
                status -H "Cookie: __Host-checkin_session=$session" "$base/events/1/no-shows?page=$page"
            done
            # A new enrolment code's cookie whose time is at the edge of Int64: shown as a time, it trapped.
            for expires in 9223372036854775807 9223372036854775000 -9223372036854775808; do
                status -H "Cookie: __Host-checkin_session=$session; __Host-checkin_new_code=1.$expires.ABCD-EFGH" \\
                    "$base/events/1/devices"
            done
            status "$base/healthz"
            if kill -0 $pid 2>/dev/null; then echo alive; kill $pid; wait $pid || true; else echo dead; cat log; fi
            """
        let (code, out) = try await ChildProcess.shell(script, in: folder)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(code == 0, "\(out)")
        #expect(lines.last == "alive", "\(out)")
        // The webhooks: refused (401, one answer for every reason), the organizer's pages served (the first page,
        // or the last, which for this list is the first), then /healthz.
        #expect(
            lines.dropLast().elementsEqual(Array(repeating: "401", count: 4) + Array(repeating: "200", count: 14)),
            "\(out)")
    }
}
