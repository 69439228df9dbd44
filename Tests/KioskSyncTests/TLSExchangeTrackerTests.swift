import Testing

/// The fault proxy's view of a TLS connection, on made-up record streams.
@Suite("TLS records and exchanges seen from outside")
struct TLSExchangeTrackerTests {
    static func record(_ type: UInt8, _ length: Int) -> [UInt8] {
        [type, 3, 3, UInt8(length >> 8), UInt8(length & 0xFF)] + Array(repeating: 0xAB, count: length)
    }

    @Test("a record split anywhere across reads comes out as pieces that know their place")
    func splitsAcrossReads() {
        var splitter = TLSRecordSplitter()
        let stream = Self.record(22, 10) + Self.record(23, 300)
        let first = splitter.split(Array(stream[0..<17]))  // the first record and 2 bytes of the next header
        #expect(first.map(\.type) == [22, 23])
        #expect(first[0] == .init(type: 22, offset: 0, total: 15, range: 0..<15))
        #expect(first[1] == .init(type: 23, offset: 0, total: nil, range: 15..<17))
        let second = splitter.split(Array(stream[17..<100]))
        #expect(second == [.init(type: 23, offset: 2, total: 305, range: 0..<83)])
        let third = splitter.split(Array(stream[100...]))
        #expect(third == [.init(type: 23, offset: 85, total: 305, range: 0..<220)])
    }

    /// TLS 1.3: the server's handshake and the client's Finished are encrypted; session tickets come unasked.
    func handshake13(_ tracker: inout TLSExchangeTracker) {
        var splitter = TLSRecordSplitter()
        for piece in splitter.split(Self.record(22, 200)) { _ = tracker.client(piece) { _ in .none } }
        for piece in splitter.split(Self.record(22, 90) + Self.record(20, 1) + Self.record(23, 2000)) {
            #expect(tracker.server(piece) == .forward)
        }
        for piece in splitter.split(Self.record(20, 1) + Self.record(23, 53)) {
            #expect(
                tracker.client(piece) { _ in
                    Issue.record("the client's Finished is no request")
                    return .none
                } == .forward)
        }
        for piece in splitter.split(Self.record(23, 250) + Self.record(23, 250)) {
            #expect(tracker.server(piece) == .forward)
        }
        #expect(tracker.encryptedHandshake && tracker.unpromptedServerRecords == 2 && tracker.exchanges == 0)
    }

    @Test("each request's records are one exchange; the fault drawn for it acts on it")
    func exchangesAndFaults() {
        var tracker = TLSExchangeTracker()
        handshake13(&tracker)
        let request = Self.record(23, 200) + Self.record(23, 1000)
        var splitter = TLSRecordSplitter()
        for piece in splitter.split(request) { #expect(tracker.client(piece) { _ in .dropResponse } == .forward) }
        #expect(tracker.exchanges == 1)
        let response = splitter.split(Self.record(23, 400))
        #expect(tracker.server(response[0]) == .init(action: .cutAfter(0), fired: .responseDropped))

        var cut = TLSExchangeTracker()
        handshake13(&cut)
        let pieces = splitter.split(request)
        #expect(cut.client(pieces[0]) { _ in .cutRequest(record: 2, fraction: 0.5) } == .forward)
        #expect(cut.client(pieces[1]) { _ in .none } == .init(action: .cutAfter(502), fired: .requestCut))

        var dropped = TLSExchangeTracker()
        handshake13(&dropped)
        #expect(dropped.client(pieces[0]) { _ in .dropRequest } == .init(action: .cutAfter(0), fired: .requestDropped))

        var answered = TLSExchangeTracker()
        handshake13(&answered)
        for piece in pieces { _ = answered.client(piece) { _ in .cutResponse(fraction: 0) } }
        #expect(
            answered.server(splitter.split(Self.record(23, 400))[0]) == .init(action: .cutAfter(1), fired: .responseCut)
        )
    }
}
