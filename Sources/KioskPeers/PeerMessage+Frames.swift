import Foundation
import NIOCore

extension PeerMessage {
    /// The message as one frame's bytes.
    func encoded(allocator: ByteBufferAllocator) throws -> ByteBuffer {
        allocator.buffer(bytes: try JSONEncoder().encode(self))
    }

    /// The message in a frame (`decoded(_:)` of its bytes).
    static func decoded(_ buffer: ByteBuffer) throws(PeerError) -> PeerMessage? {
        try decoded(Data(buffer.readableBytesView))
    }
}
