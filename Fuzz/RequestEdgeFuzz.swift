// libFuzzer entry point for what an anonymous request's edge parses before anything is authenticated: the query
// string of the organizer's pages (`QueryString.value`, then a page number into its range as `GuestsView.page`
// reads it) and the Standard Webhooks headers (`StandardWebhook.verify`, whose timestamp of -2^63 killed the
// server). Built by `Fuzz/run.sh request-edge`, linked against WireAPI and
// CheckinWebhooks. The input's lines: the query, then the webhook's id, timestamp and signature; the rest is its
// body.

import BoundedNumbers
import Foundation
import WireAPI

@testable import CheckinWebhooks

let secret = try! WebhookSecretKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
let now = Date(timeIntervalSince1970: 1_614_265_330)

@_cdecl("LLVMFuzzerTestOneInput")
public func requestEdgeFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 4, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    while lines.count < 5 { lines.append("") }
    let query = lines[0]
    for name in ["page", "q", "sort", "count", ""] {
        guard let value = QueryString.value(name, in: query) else { continue }
        if let page = BoundedInteger.clamped(value, to: 1...100_000), !(1...100_000).contains(page) {
            fatalError("page \(page) read from '\(value)' lies outside its range")
        }
        if let seconds = BoundedInteger.parse(value, in: ClockDistance.seconds),
            !ClockDistance.seconds.contains(seconds)
        {
            fatalError("\(seconds) read from '\(value)' lies outside its range")
        }
    }
    let body = Array(lines[4].utf8)
    guard
        let id = try? StandardWebhook.verify(
            id: lines[1], timestamp: lines[2], signature: lines[3], body: body, secrets: [secret], now: now)
    else { return 0 }
    // Accepted: then the fuzzer signed it, which only the secret can do.
    let expected =
        "v1,"
        + Data(StandardWebhook.mac(id: id, timestamp: lines[2], body: body, key: secret.bytes))
        .base64EncodedString()
    guard lines[3].split(separator: " ").contains(Substring(expected)) else {
        fatalError("a webhook without the secret's signature was accepted")
    }
    return 0
}
