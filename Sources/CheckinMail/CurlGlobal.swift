internal import CCurl

/// libcurl's process-wide setup, run once before the first handle (a Swift global is initialized once, under
/// a lock). The corresponding C function is `curl_global_init(CURL_GLOBAL_DEFAULT)`.
enum CurlGlobal {
    static let result: CURLcode = curl_global_init(CCurl_global_default())

    /// Whether libcurl could set itself up; false means no transfer can work in this process.
    static var isReady: Bool { result == CURLE_OK }
}
