/// The relay's replies as libcurl reads them (its debug callback's `CURLINFO_HEADER_IN` lines): multi-line
/// replies (`250-…`, then `250 …`) are joined, so a failure can quote the reply that caused it.
struct SMTPReplyLog {
    struct Reply: Equatable {
        var code: Int
        var text: String
    }

    private(set) var replies: [Reply] = []
    private var pendingLines: [String] = []

    /// Takes what libcurl passed to the debug callback: one or more reply lines.
    mutating func read(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            let utf8 = Array(line.utf8)
            guard utf8.count >= 3, utf8[0..<3].allSatisfy({ $0 >= 48 && $0 <= 57 }), let code = Int(line.prefix(3))
            else { continue }
            let separator = utf8.count > 3 ? utf8[3] : UInt8(ascii: " ")
            pendingLines.append(String(line))
            if separator != UInt8(ascii: "-") {
                replies.append(Reply(code: code, text: pendingLines.joined(separator: "\n")))
                pendingLines = []
            }
        }
    }

    /// The last reply with an error code (4xx or 5xx): the one that ended the conversation, even when libcurl
    /// said QUIT after it.
    var lastFailure: Reply? { replies.last { $0.code >= 400 } }
}
