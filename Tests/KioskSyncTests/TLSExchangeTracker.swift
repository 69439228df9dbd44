/// Splits a TLS byte stream into records as it arrives. A piece is the part of one record within one read,
/// with its place in the record, so a fault can cut a record anywhere.
struct TLSRecordSplitter {
    struct Piece: Equatable {
        /// The record's content type: 22 handshake, 20 change cipher spec, 21 alert, 23 application data.
        var type: UInt8
        /// Where the piece starts in the record (0: the first byte of its 5-byte header).
        var offset: Int
        /// The record's size with its header, once the header is read.
        var total: Int?
        /// The piece's bytes in the read.
        var range: Range<Int>
    }

    private var type: UInt8 = 0
    private var header: [UInt8] = []
    private var read = 0
    private var total: Int?

    mutating func split(_ bytes: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var i = 0
        while i < bytes.count {
            let start = i
            let offset = read
            if read == 0 { type = bytes[i] }
            while header.count < 5 && i < bytes.count {
                header.append(bytes[i])
                i += 1
            }
            if header.count == 5 && total == nil { total = 5 + (Int(header[3]) << 8 | Int(header[4])) }
            if let total {
                i += min(total - (offset + i - start), bytes.count - i)
            }
            read = offset + i - start
            pieces.append(Piece(type: type, offset: offset, total: total, range: start..<i))
            if let total, read == total {
                header = []
                read = 0
                self.total = nil
            }
        }
        return pieces
    }
}

/// What the proxy does to one exchange (a request and its response) on a connection.
enum ExchangeFault: Equatable {
    case none
    /// Close the connection as the request starts: the server never sees it.
    case dropRequest
    /// Forward the request, close the connection as the response starts: the server applied it, the client
    /// does not know.
    case dropResponse
    /// Close after `fraction` of the request's `record`-th record (1: usually the head, 2: the body).
    case cutRequest(record: Int, fraction: Double)
    /// Close after `fraction` of the response's first record.
    case cutResponse(fraction: Double)
}

/// The exchanges of one TLS connection seen from outside, without decrypting: after the handshake the
/// client's application-data records are a request and the server's next ones its response. In TLS 1.3 the
/// server's handshake is already encrypted (type 23) and the client's first type-23 record is its Finished.
struct TLSExchangeTracker {
    enum Action: Equatable {
        case forward
        /// Forward the first `count` bytes of the piece, then close the connection.
        case cutAfter(Int)
    }

    enum Fired: Equatable { case requestDropped, responseDropped, requestCut, responseCut }

    /// What to do with a piece, and the fault that fires with it.
    struct Step: Equatable {
        var action: Action
        var fired: Fired?

        static let forward = Step(action: .forward)
    }

    enum Phase { case handshake, idle, request, response }

    private(set) var phase = Phase.handshake
    private(set) var exchanges = 0
    /// The server sent encrypted handshake records (TLS 1.3).
    private(set) var encryptedHandshake = false
    /// Application-data records the server sent after the handshake before any request (TLS 1.3 session
    /// tickets sent early would be such).
    private(set) var unpromptedServerRecords = 0
    private var fault = ExchangeFault.none
    private var requestRecords = 0
    private var responseRecords = 0

    /// A piece from the client; `draw` chooses the fault of an exchange (numbered from 1) as its request starts.
    mutating func client(_ piece: TLSRecordSplitter.Piece, draw: (Int) -> ExchangeFault) -> Step {
        guard piece.type == 23 else { return .forward }
        if piece.offset == 0 {
            if phase == .handshake && encryptedHandshake {
                phase = .idle  // the client's Finished
                return .forward
            }
            if phase != .request {
                phase = .request
                exchanges += 1
                requestRecords = 0
                fault = draw(exchanges)
                if fault == .dropRequest { return Step(action: .cutAfter(0), fired: .requestDropped) }
            }
            requestRecords += 1
        }
        if case .cutRequest(let record, let fraction) = fault, record == requestRecords,
            let cut = Self.cut(piece, fraction)
        {
            return Step(action: .cutAfter(cut), fired: .requestCut)
        }
        return .forward
    }

    /// A piece from the server.
    mutating func server(_ piece: TLSRecordSplitter.Piece) -> Step {
        guard piece.type == 23 else { return .forward }
        if piece.offset == 0 {
            switch phase {
            case .handshake:
                encryptedHandshake = true
                return .forward
            case .idle:
                unpromptedServerRecords += 1
                return .forward
            case .request:
                phase = .response
                responseRecords = 0
                if fault == .dropResponse { return Step(action: .cutAfter(0), fired: .responseDropped) }
            case .response:
                break
            }
            responseRecords += 1
        }
        if phase == .response, responseRecords == 1, case .cutResponse(let fraction) = fault,
            let cut = Self.cut(piece, fraction)
        {
            return Step(action: .cutAfter(cut), fired: .responseCut)
        }
        return .forward
    }

    /// Where to cut in this piece to stop at `fraction` of its record (at least one byte in, at least two
    /// bytes short; at the piece's start if that place was in an earlier piece whose record size was not
    /// known yet), or nil if it is in a later piece.
    static func cut(_ piece: TLSRecordSplitter.Piece, _ fraction: Double) -> Int? {
        guard let total = piece.total, total > 1 else { return nil }
        let at = 1 + Int(fraction * Double(total - 2))
        let inPiece = at - piece.offset
        return inPiece < piece.range.count ? max(inPiece, 0) : nil
    }
}
