import DedicatedThreads
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

/// A real HTTP server on loopback that takes webhooks: it keeps every request (headers and raw body) and
/// answers each with the next status of its script (then 204).
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        var headers: [String: String]
        var body: [UInt8]
        var status: Int
    }

    private let state: Mutex<(script: [Int], received: [Received])>

    init(answering script: [Int] = []) { state = Mutex((script, [])) }

    var received: [Received] { state.withLock { $0.received } }

    /// Runs the receiver on a port of its own while `body` runs with that port.
    func run<T: Sendable>(_ body: @Sendable (Int) async throws -> T) async throws -> T {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let status = self.state.withLock { state -> Int in
                let status = state.script.isEmpty ? 204 : state.script.removeFirst()
                state.received.append(Received(headers: headers, body: Array(bytes.readableBytesView), status: status))
                return status
            }
            return Response(status: HTTPResponse.Status(code: status))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        // On threads of its own: a test blocking pool threads beside it cannot keep it from answering.
        return try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await app.test(.live) { client in try await body(try #require(client.port)) }
        }
    }
}
