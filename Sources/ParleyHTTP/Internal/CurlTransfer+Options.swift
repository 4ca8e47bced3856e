internal import CCurl
import Foundation
import ParleyBasics

extension CurlTransfer {
    /// Hosts that never go through a proxy from the environment (`http_proxy` and friends): a proxy cannot
    /// reach this machine's loopback servers. Keeps the environment's own `no_proxy` list.
    static let noProxy: String = {
        let environment = ProcessInfo.processInfo.environment
        let inherited = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        return (["localhost", "127.0.0.1", "::1"] + [inherited]).filter { !$0.isEmpty }.joined(separator: ",")
    }()

    /// Sets every option of the easy handle from ``request``.
    func configure() throws(HTTPClientError) {
        try set(CURLOPT_URL, request.url)
        // Timeouts must not use signals: many threads, and libcurl's resolver may otherwise use SIGALRM.
        try set(CURLOPT_NOSIGNAL, 1)
        // Only HTTP: a URL or a redirect must never make libcurl read a file or speak another protocol.
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_NOPROXY, Self.noProxy)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        // TLS verification stays at libcurl's default (on), with the system's CA bundle.
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_PRIVATE, callbackContext), CURLOPT_PRIVATE)

        if let connectTimeout = request.connectTimeout {
            try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
        }
        if let timeout = request.timeout {
            try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
        }
        try configureMethodAndBody()
        try configureHeaders()
        try configureCallbacks()
    }

    private func configureMethodAndBody() throws(HTTPClientError) {
        switch request.method {
        case .get where request.body == nil:
            try set(CURLOPT_HTTPGET, 1)
        case .head:
            try set(CURLOPT_NOBODY, 1)
        default:
            if request.body != nil || request.method == .post {
                let body = request.body ?? Data()
                try setLarge(CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                if body.isEmpty {
                    // A non-null pointer with size 0: an empty body rather than no body.
                    try set(CURLOPT_COPYPOSTFIELDS, "")
                } else {
                    // COPYPOSTFIELDS copies the bytes, so the Data need not outlive this call.
                    let code = body.withUnsafeBytes { bytes in
                        parley_curl_easy_setopt_pointer(
                            handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    }
                    try check(code, CURLOPT_COPYPOSTFIELDS)
                }
            }
            if request.method != .post {
                try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
        }
    }

    private func configureHeaders() throws(HTTPClientError) {
        for line in request.headerLines {
            guard let list = curl_slist_append(headerList, line) else {
                throw HTTPClientError.transferFailed.with(url: request.redactedURL, detail: "curl_slist_append failed")
            }
            headerList = list
        }
        try check(parley_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
    }

    private func configureCallbacks() throws(HTTPClientError) {
        let headerCallback: curl_write_callback = { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
            return CurlTransfer.from(context: context).receiveHeaderLine(bytes)
        }
        let writeCallback: curl_write_callback = { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
            return CurlTransfer.from(context: context).receiveBody(bytes)
        }
        try check(
            parley_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback),
            CURLOPT_HEADERFUNCTION)
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, callbackContext), CURLOPT_HEADERDATA)
        try check(
            parley_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, writeCallback), CURLOPT_WRITEFUNCTION)
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, callbackContext), CURLOPT_WRITEDATA)
    }

    // MARK: - Helpers

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(parley_curl_easy_setopt_long(handle, option, value), option)
    }

    /// For the `_LARGE` options, which take a `curl_off_t`.
    private func setLarge(_ option: CURLoption, _ value: curl_off_t) throws(HTTPClientError) {
        try check(parley_curl_easy_setopt_off_t(handle, option, value), option)
    }

    /// libcurl copies string options, so the temporary C string may go right after the call.
    private func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        try check(parley_curl_easy_setopt_string(handle, option, value), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            let reason = String(cString: curl_easy_strerror(code))
            let error: HTTPClientError = option == CURLOPT_URL ? .invalidURL : .transferFailed
            throw error.with(url: request.redactedURL, detail: "libcurl rejected option \(option.rawValue): \(reason)")
        }
    }

    /// A time limit in whole milliseconds, rounded up and at least 1: libcurl reads 0 as "no limit".
    static func milliseconds(_ duration: Duration) -> Int {
        Int(clamping: max(1, duration.milliseconds(rounded: .up)))
    }
}
