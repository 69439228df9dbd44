internal import CCurl
import Foundation
import Glibc

/// One message handed to the relay by a libcurl easy handle, on the calling thread (it blocks until the relay
/// answered the data or the transfer failed). Owns the handle, the recipient list and the error buffer, and
/// frees them when it goes away.
struct CurlSMTPTransfer: ~Copyable {
    private let handle: UnsafeMutableRawPointer
    private let recipients: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let state: Unmanaged<TransferState>
    private let relay: SMTPRelay
    private let from: String

    /// What the callbacks read and write, reached through their user-data pointer.
    final class TransferState {
        let body: [UInt8]
        var offset = 0
        var log = SMTPReplyLog()
        let cancellation: CancellationFlag

        init(body: [UInt8], cancellation: CancellationFlag) {
            self.body = body
            self.cancellation = cancellation
        }
    }

    /// Makes the easy handle for one message to `relay`. The corresponding C function is `curl_easy_init`.
    init(relay: SMTPRelay, body: [UInt8], from: String, to: [String], cancellation: CancellationFlag)
        throws(SMTPError)
    {
        guard CurlGlobal.isReady, let handle = curl_easy_init() else {
            throw SMTPError(
                kind: .localFailure, replyCode: nil, replyText: nil, curlCode: Int32(CurlGlobal.result.rawValue),
                curlMessage: "curl_global_init or curl_easy_init failed")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        state = Unmanaged.passRetained(TransferState(body: body, cancellation: cancellation))
        var list: UnsafeMutablePointer<curl_slist>?
        for address in to { list = curl_slist_append(list, "<\(address)>") }
        recipients = list
        self.relay = relay
        self.from = from
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(recipients)
        errorBuffer.deallocate()
        state.release()
    }

    /// Runs the transfer; a set cancellation flag stops it at libcurl's next progress call (many times a
    /// second while connecting, about once a second when idle) with `.cancelled`.
    /// The corresponding C function is `curl_easy_perform`.
    func perform() -> Result<Void, SMTPError> {
        do {
            try configure()
        } catch {
            return .failure(error)
        }
        let code = curl_easy_perform(handle)
        guard code != CURLE_OK else { return .success(()) }
        var responseCode = 0
        _ = CCurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &responseCode)
        let message = String(cString: errorBuffer)
        return .failure(
            SMTPError.classify(
                curlCode: code, curlMessage: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message,
                failure: state.takeUnretainedValue().log.lastFailure, responseCode: responseCode))
    }

    /// Sets up the easy handle: URL, TLS, credentials, envelope, body, timeouts, callbacks.
    /// The corresponding C function is `curl_easy_setopt`.
    private func configure() throws(SMTPError) {
        let userData = state.toOpaque()
        try set(CURLOPT_URL, relay.curlURL)
        try set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_USE_SSL, Int(relay.security == .none ? CURLUSESSL_NONE.rawValue : CURLUSESSL_ALL.rawValue))
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = relay.caFile {
            try set(CURLOPT_CAINFO, caFile)
            try set(CURLOPT_CAPATH, nil)  // the given CA file alone decides, not the system's folder too
        }
        if let credentials = relay.credentials {
            try set(CURLOPT_USERNAME, credentials.username)
            try set(CURLOPT_PASSWORD, credentials.password)
        }
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(relay.connectTimeout))
        try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(relay.timeout))
        // Each reply's wait, QUIT's included: libcurl leaves the total timeout out of the goodbye, so a relay that
        // took the message and never answers QUIT would otherwise hold the step for its default of 120 s.
        try set(CURLOPT_SERVER_RESPONSE_TIMEOUT, Int((Self.milliseconds(relay.timeout) + 999) / 1000))
        try set(CURLOPT_MAIL_FROM, "<\(from)>")
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_MAIL_RCPT, recipients), "CURLOPT_MAIL_RCPT")
        try set(CURLOPT_UPLOAD, 1)
        try check(CCurl_easy_setopt_read_function(handle, Self.readBody), "CURLOPT_READFUNCTION")
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_READDATA, userData), "CURLOPT_READDATA")
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try check(CCurl_easy_setopt_opensocket_function(handle, Self.openSocket), "CURLOPT_OPENSOCKETFUNCTION")
        // The debug callback is how libcurl shows the relay's reply lines; it only runs in verbose mode.
        try set(CURLOPT_VERBOSE, 1)
        try check(CCurl_easy_setopt_debug_function(handle, Self.recordReply), "CURLOPT_DEBUGFUNCTION")
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_DEBUGDATA, userData), "CURLOPT_DEBUGDATA")
        try set(CURLOPT_NOPROGRESS, 0)
        try check(CCurl_easy_setopt_xferinfo_function(handle, Self.progress), "CURLOPT_XFERINFOFUNCTION")
        try check(CCurl_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, userData), "CURLOPT_XFERINFODATA")
    }

    private func set(_ option: CURLoption, _ value: Int) throws(SMTPError) {
        try check(CCurl_easy_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String?) throws(SMTPError) {
        // libcurl copies string options, so the C string need only live for the call.
        let code =
            value.map { CCurl_easy_setopt_string(handle, option, $0) } ?? CCurl_easy_setopt_string(handle, option, nil)
        try check(code, "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ what: String) throws(SMTPError) {
        guard code == CURLE_OK else {
            throw SMTPError(
                kind: .localFailure, replyCode: nil, replyText: nil, curlCode: Int32(code.rawValue),
                curlMessage: "curl_easy_setopt(\(what)): " + String(cString: curl_easy_strerror(code)))
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// CURLOPT_READFUNCTION: hands libcurl the next bytes of the message (0 at the end).
    private static let readBody: curl_read_callback = { buffer, size, count, userData in
        guard let buffer, let userData else { return Int(CURL_READFUNC_ABORT) }
        let state = Unmanaged<TransferState>.fromOpaque(userData).takeUnretainedValue()
        if state.cancellation.isCancelled { return Int(CURL_READFUNC_ABORT) }
        let length = min(size * count, state.body.count - state.offset)
        state.body.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: bytes.baseAddress! + state.offset, byteCount: length)
        }
        state.offset += length
        return length
    }

    /// CURLOPT_DEBUGFUNCTION: keeps the relay's reply lines; everything else (and what the client sent, which
    /// holds the AUTH exchange) is dropped.
    private static let recordReply: curl_debug_callback = { _, type, data, size, userData in
        guard type == CURLINFO_HEADER_IN, let data, let userData else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(userData).takeUnretainedValue()
        state.log.read(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    /// CURLOPT_OPENSOCKETFUNCTION: the relay's socket, close-on-exec from the start (libcurl 7.88 opens it without
    /// SOCK_CLOEXEC). A child process spawned meanwhile by another thread would otherwise inherit it and hold the
    /// connection open after libcurl closed it: after a cancel or a failure the relay would wait for the next
    /// command instead of seeing the connection end.
    private static let openSocket: curl_opensocket_callback = { _, _, address in
        guard let address else { return CURL_SOCKET_BAD }
        return socket(
            address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }

    /// CURLOPT_XFERINFOFUNCTION: a non-zero answer makes libcurl stop with CURLE_ABORTED_BY_CALLBACK.
    private static let progress: curl_xferinfo_callback = { userData, _, _, _, _ in
        guard let userData else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(userData).takeUnretainedValue()
        return state.cancellation.isCancelled ? 1 : 0
    }
}
