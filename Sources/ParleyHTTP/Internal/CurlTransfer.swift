internal import CCurl
import Foundation

/// One libcurl easy handle and the state of its transfer, owned by the engine thread.
///
/// Lives in ``CurlEngineLoop``'s table from the moment its handle is added to the multi handle until it is
/// removed, which keeps the `Unmanaged` pointer that libcurl passes to the callbacks valid. `deinit` releases
/// the handle, so it must run after the handle left the multi handle.
final class CurlTransfer {
    let channel: TransferChannel
    let request: PreparedRequest
    let handle: UnsafeMutableRawPointer
    /// libcurl writes its explanation of a failure here (CURLOPT_ERRORBUFFER).
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headerList: UnsafeMutablePointer<curl_slist>?

    /// Paused because the reader fell behind; the idle clock stops meanwhile.
    var isPaused = false
    /// When the idle timeout runs out, unless a byte arrives before.
    private(set) var idleDeadline: ContinuousClock.Instant?

    /// Header fields of the response being received; reset by each status line (1xx responses come first).
    var headerFields: [HTTPHeaders.Field] = []
    var headDelivered = false

    private init(handle: UnsafeMutableRawPointer, request: PreparedRequest, channel: TransferChannel) {
        self.handle = handle
        self.request = request
        self.channel = channel
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Creates and configures an easy handle for `request`.
    ///
    /// - Throws: ``HTTPClientError`` when libcurl rejects an option; the handle is released then.
    static func make(request: PreparedRequest, channel: TransferChannel) throws(HTTPClientError) -> CurlTransfer {
        guard let handle = curl_easy_init() else {
            throw HTTPClientError.transferFailed.with(url: request.redactedURL, detail: "curl_easy_init failed")
        }
        let transfer = CurlTransfer(handle: handle, request: request, channel: channel)
        try transfer.configure()
        return transfer
    }

    /// The opaque pointer libcurl hands back to the callbacks.
    var callbackContext: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// Recovers the transfer from a callback's context pointer.
    static func from(context: UnsafeMutableRawPointer) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    }

    // MARK: - Idle clock

    /// Restarts the idle clock: called when the transfer starts, on every byte received, and on unpause.
    func restartIdleClock(now: ContinuousClock.Instant = .now) {
        idleDeadline = request.idleTimeout.map { now + $0 }
    }

    /// Stops the idle clock while paused: the reader, not the server, is slow.
    func stopIdleClock() {
        idleDeadline = nil
    }

    // MARK: - Control

    /// Resumes a paused transfer; libcurl may call the write callback from inside this call.
    func unpause() {
        guard isPaused else { return }
        isPaused = false
        restartIdleClock()
        _ = parley_curl_easy_unpause(handle)
    }

    /// libcurl's message for the failure, or its generic text for `code`.
    func errorMessage(for code: CURLcode) -> String {
        let message = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
    }

    /// Whether the request got past connecting (and TLS) to sending, which tells a connect timeout from others.
    var reachedPretransfer: Bool {
        var microseconds: curl_off_t = 0
        return parley_curl_easy_getinfo_off_t(handle, CURLINFO_PRETRANSFER_TIME_T, &microseconds) == CURLE_OK
            && microseconds > 0
    }

    /// The status code of the last response received.
    var responseCode: Int {
        var code = 0
        _ = parley_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }
}

@available(*, unavailable, message: "Owns a libcurl easy handle, used on the engine thread only")
extension CurlTransfer: Sendable {}
