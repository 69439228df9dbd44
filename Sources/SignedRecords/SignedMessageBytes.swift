/// How the messages that doors and the server sign are laid out (a credential, a server notice, a door's item):
/// integers big-endian, each string or byte field behind its length, so no two values share a message.
extension FixedWidthInteger {
    /// Big-endian bytes.
    package var bigEndianBytes: [UInt8] { withUnsafeBytes(of: bigEndian, Array.init) }
}

extension [UInt8] {
    /// A string behind its 4-byte length.
    package mutating func appendSignedField(_ text: String) { appendSignedField(Array(text.utf8)) }

    /// Bytes behind their 4-byte length.
    package mutating func appendSignedField(_ bytes: [UInt8]) {
        append(contentsOf: UInt32(clamping: bytes.count).bigEndianBytes)
        append(contentsOf: bytes)
    }
}
