internal import CCurl

extension SMTPError {
    /// Sorts a failed transfer: the relay's error reply decides when there is one (4xx transient, 5xx
    /// permanent), else libcurl's result code.
    static func classify(curlCode: CURLcode, curlMessage: String, failure: SMTPReplyLog.Reply?, responseCode: Int)
        -> SMTPError
    {
        var replyCode = failure?.code
        if replyCode == nil, responseCode >= 400 { replyCode = responseCode }
        let kind: Kind
        switch (replyCode, curlCode) {
        case (let code?, _) where code < 500: kind = .rejectedTemporarily
        case (_?, _): kind = .rejectedPermanently
        case (nil, CURLE_COULDNT_RESOLVE_HOST), (nil, CURLE_COULDNT_CONNECT):
            kind = .unreachable
        case (nil, CURLE_OPERATION_TIMEDOUT):
            kind = curlMessage.lowercased().contains("connect") ? .unreachable : .timedOut
        case (nil, CURLE_SSL_CONNECT_ERROR), (nil, CURLE_PEER_FAILED_VERIFICATION), (nil, CURLE_USE_SSL_FAILED),
            (nil, CURLE_SSL_CERTPROBLEM), (nil, CURLE_SSL_CACERT_BADFILE), (nil, CURLE_SSL_CIPHER),
            (nil, CURLE_SSL_ISSUER_ERROR):
            kind = .tlsFailed
        case (nil, CURLE_LOGIN_DENIED):
            // Credentials configured but the relay offers no AUTH mechanism libcurl knows: asking again won't help.
            kind = .rejectedPermanently
        case (nil, CURLE_ABORTED_BY_CALLBACK):
            kind = .cancelled
        case (nil, CURLE_OUT_OF_MEMORY), (nil, CURLE_FAILED_INIT), (nil, CURLE_UNSUPPORTED_PROTOCOL),
            (nil, CURLE_URL_MALFORMAT), (nil, CURLE_NOT_BUILT_IN), (nil, CURLE_UNKNOWN_OPTION),
            (nil, CURLE_BAD_FUNCTION_ARGUMENT), (nil, CURLE_READ_ERROR):
            kind = .localFailure
        default:
            // Send and receive errors, an empty or odd answer: the conversation broke; another try may work.
            kind = .connectionLost
        }
        return SMTPError(
            kind: kind, replyCode: replyCode, replyText: failure?.text, curlCode: Int32(curlCode.rawValue),
            curlMessage: curlMessage)
    }
}
