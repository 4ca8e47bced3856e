internal import CCurl

/// libcurl's process-wide initialization.
///
/// `curl_global_init` must run once per process before any other libcurl call, and it is not safe to run it
/// concurrently. A `static let` initializer runs exactly once, however many threads ask at the same time.
enum CurlGlobal {
    private static let initialization: CURLcode = parley_curl_global_init_default()

    /// Initializes libcurl on the first call; later calls return at once.
    ///
    /// - Throws: ``HTTPClientError/transferFailed`` when libcurl cannot initialize (out of memory, or TLS
    ///   library failure).
    static func initialize() throws(HTTPClientError) {
        let code = initialization
        guard code == CURLE_OK else {
            throw HTTPClientError.transferFailed.with(
                url: "libcurl", detail: "curl_global_init failed: \(String(cString: curl_easy_strerror(code)))")
        }
    }
}
