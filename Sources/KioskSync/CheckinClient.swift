import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import WireAPI

import struct Foundation.CharacterSet
import struct Foundation.Data
import struct Foundation.Date

/// The kiosk's client of the check-in server's API (docs/api/openapi.yaml) over AsyncHTTPClient: HTTPS that
/// verifies the server's certificate against `caFile` (or the system's CAs), the device's Bearer token, JSON
/// through `APICoding`. Every failure is a `SyncError`. Owns its `HTTPClient`: call `shutdown()` when done
/// (or use `withClient`).
public final class CheckinClient: Sendable {
    /// One answer with the times the request was sent and the answer received (device clock), for the
    /// clock offset.
    public struct Exchange<Answer: Sendable>: Sendable {
        public var answer: Answer
        public var sentAt: Date
        public var receivedAt: Date
    }

    public let serverURL: String
    let token: String?
    let http: HTTPClient
    let clock: any SyncClock
    let timeout: TimeAmount

    /// A client of the server at `serverURL`; `caFile` is a PEM file of the CA that signed the server's
    /// certificate (read now, so a missing file is named here).
    public init(
        serverURL: String, token: String?, caFile: String?, clock: any SyncClock = SystemSyncClock(),
        timeout: Duration = .seconds(20)
    ) throws(SyncError) {
        try ServerAddress.check(serverURL)
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw SyncError(
                    kind: .tls, operation: "reading the server's CA file \(caFile)", message: "\(error)",
                    advice: "check 'server_ca' in kiosk.conf (or --ca-file): it must be a readable PEM certificate")
            }
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(Int64(timeout.components.seconds)))
        self.serverURL = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        self.token = token
        self.clock = clock
        self.timeout = .seconds(Int64(timeout.components.seconds))
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Makes a client, runs `body` with it, and shuts it down whatever happens.
    public static func withClient<T: Sendable>(
        serverURL: String, token: String?, caFile: String?, clock: any SyncClock = SystemSyncClock(),
        _ body: (CheckinClient) async throws -> T
    ) async throws -> T {
        let client = try CheckinClient(serverURL: serverURL, token: token, caFile: caFile, clock: clock)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    public func shutdown() async { try? await http.shutdown() }

    /// `POST /v1/enrolments/redeem`.
    public func redeem(_ request: EnrolmentRequest) async throws(SyncError) -> Exchange<Enrolment> {
        try await send(.POST, "/v1/enrolments/redeem", body: request, what: "redeeming the enrolment code")
    }

    /// `POST /v1/events/{event}/check-ins`: one batch (at most 50 items).
    public func upload(_ batch: CheckInBatch, event: UInt32) async throws(SyncError) -> Exchange<CheckInBatchResult> {
        try await send(
            .POST, "/v1/events/\(event)/check-ins", body: batch, what: "uploading \(batch.items.count) check-ins")
    }

    /// `GET /v1/events/{event}/roster`: a page of the first download (`page`, nil for the first), or of the
    /// rows changed since `changesSince`.
    public func rosterPage(event: UInt32, page: String?, changesSince: String?) async throws(SyncError)
        -> Exchange<RosterPage>
    {
        var query: [String] = []
        if let changesSince { query.append("changesSince=" + Self.queryValue(changesSince)) }
        if let page { query.append("page=" + Self.queryValue(page)) }
        let path = "/v1/events/\(event)/roster" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await send(
            .GET, path, body: nil as Heartbeat?,
            what: changesSince == nil ? "downloading the roster" : "fetching roster changes",
            read: RosterPage.init(json:))
    }

    /// Percent-encodes a cursor for a query string (cursors are opaque): all but unreserved characters.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `POST /v1/devices/heartbeat`.
    public func heartbeat(_ heartbeat: Heartbeat) async throws(SyncError) -> Exchange<HeartbeatAnswer> {
        try await send(.POST, "/v1/devices/heartbeat", body: heartbeat, what: "sending the heartbeat")
    }

    /// Sends a request and decodes its answer; `read`, if given, is a faster reader of the answer's JSON, and
    /// what it cannot read is decoded by `APICoding.decoder()`.
    func send<Body: Encodable, Answer: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, body: Body?, what: String, read: ((Data) throws -> Answer)? = nil
    ) async throws(SyncError) -> Exchange<Answer> {
        let operation = "\(what) to \(serverURL)"
        var request = HTTPClientRequest(url: serverURL + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Kiosk-Version", value: KioskSoftware.version)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        do {
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: try APICoding.encoder().encode(body)))
            }
        } catch {
            throw SyncError(
                kind: .badAnswer, operation: operation, message: "could not encode the request: \(error)",
                advice: "report this as a bug")
        }
        let sentAt = clock.now()
        let status: HTTPResponseStatus
        let bytes: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = response.status
            bytes = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw Self.transportError(error, operation: operation)
        }
        let receivedAt = clock.now()
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(status.code) else {
            let apiError = try? APICoding.decoder().decode(APIError.self, from: data)
            let code = apiError?.code ?? "http_\(status.code)"
            let message = apiError?.message ?? "the server answered \(status.code) \(status.reasonPhrase)"
            if status.code == 426 {
                throw SyncError(
                    kind: .updateRequired, operation: operation, message: message,
                    advice: "update the kiosk software; its queued check-ins are still uploaded")
            }
            if status.code == 401 {
                throw SyncError(
                    kind: .unauthorized, operation: operation, message: message,
                    advice: "the device token was refused: enrol the kiosk again (kioskctl enroll)")
            }
            throw SyncError(
                kind: .server(status: Int(status.code), code: code), operation: operation, message: message,
                advice: apiError?.hint
                    ?? (status.code >= 500
                        ? "the server failed; the queue stays and is sent later" : "see the server's log"))
        }
        do {
            let answer = try read.flatMap { try? $0(data) } ?? APICoding.decoder().decode(Answer.self, from: data)
            return Exchange(answer: answer, sentAt: sentAt, receivedAt: receivedAt)
        } catch {
            throw SyncError(
                kind: .badAnswer, operation: operation, message: "the answer is not the API's JSON: \(error)",
                advice: "check that 'server' in kiosk.conf is the check-in server and both are the same version")
        }
    }

    static func transportError(_ error: any Error, operation: String) -> SyncError {
        if error is NIOSSLError || error is BoringSSLError || String(describing: error).contains("SSL") {
            return SyncError(
                kind: .tls, operation: operation, message: "TLS failed: \(error)",
                advice:
                    "check that 'server_ca' is the CA that signed the server's certificate and that the URL's host is in the certificate"
            )
        }
        return SyncError(
            kind: .unreachable, operation: operation, message: "the server could not be reached: \(error)",
            advice: "check the network and that the server runs; the queue stays and is sent later")
    }
}
