import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import CheckinServer

/// The request edge's handlers in memory, on a virtual clock (swift-nio's `EmbeddedChannel`): a body's pace and
/// the connections per address, checked in microseconds; `ConnectionLimitTests` checks them over real sockets.
struct RequestEdgeHandlerTests {
    static func connected(_ handler: some ChannelHandler, from address: String = "192.0.2.7") throws -> EmbeddedChannel
    {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: address, port: 40_000)).wait()
        return channel
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/sign-in"))

    static func body(_ count: Int) -> HTTPRequestPart { .body(ByteBuffer(repeating: 0x61, count: count)) }

    @Test func aBodyThatStopsComingIsCutOffAtItsPaceTimeout() throws {
        let channel = try Self.connected(
            RequestEdgeHandler(headerTimeout: .seconds(10), bodyProgressTimeout: .seconds(20), bodyProgressBytes: 100))
        try channel.writeInbound(Self.head)
        // A byte every 5 s: 4 bytes when the 20 s are up, far from the 100 that would have moved the deadline.
        for _ in 0..<3 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(5))
            try channel.writeInbound(Self.body(1))
            #expect(channel.isActive)
        }
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(!channel.isActive, "a body a byte every 5 s held its connection past 20 s")
    }

    @Test func aBodyAtItsPaceStaysAndItsEndEndsTheDeadline() throws {
        let channel = try Self.connected(
            RequestEdgeHandler(headerTimeout: .seconds(10), bodyProgressTimeout: .seconds(20), bodyProgressBytes: 100))
        try channel.writeInbound(Self.head)
        // 100 bytes every 15 s: each moves the deadline 20 s on.
        for _ in 0..<8 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(15))
            try channel.writeInbound(Self.body(100))
        }
        #expect(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // The request is in: the server's answer may take its time.
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func aHeaderSentSlowlyIsCutOffAtTheHeaderTimeout() throws {
        // The handler at the front of the pipeline, where the bytes arrive (before the HTTP decoder).
        let channel = try Self.connected(RequestHeaderTimeout(timeout: .seconds(10)))
        try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func connectionsBeyondTheCapOfAnAddressAreClosedAndAClosedOneFreesItsPlace() throws {
        let counts = ConnectionsPerAddress(limit: 2, exempt: ["198.51.100.1"], logger: Logger(label: "test"))
        let first = try Self.connected(counts.handler())
        let second = try Self.connected(counts.handler())
        let third = try Self.connected(counts.handler())
        #expect(first.isActive && second.isActive)
        #expect(!third.isActive, "a third connection of one address was kept beside two")
        #expect(counts.count(of: "192.0.2.7") == 2)
        // Another address, and a trusted proxy's many, are not held back.
        let other = try Self.connected(counts.handler(), from: "192.0.2.8")
        let proxied = try (0..<5).map { _ in try Self.connected(counts.handler(), from: "198.51.100.1") }
        #expect(other.isActive && proxied.allSatisfy(\.isActive))
        // One closes: its place is free again.
        _ = try first.finish()
        #expect(counts.count(of: "192.0.2.7") == 1)
        let fourth = try Self.connected(counts.handler())
        #expect(fourth.isActive)
        #expect(counts.count(of: "192.0.2.7") == 2)
    }
}
