internal import CCurl

extension CurlTransfer {
    /// The error for a transfer that libcurl finished with `code`, or `nil` for success.
    func completionError(_ code: CURLcode) -> HTTPClientError? {
        guard code != CURLE_OK else {
            return headDelivered
                ? nil : HTTPClientError.invalidResponse.with(url: request.redactedURL, detail: "no response headers")
        }
        let message = errorMessage(for: code)
        let url = request.redactedURL
        switch code {
        case CURLE_COULDNT_CONNECT:
            return HTTPClientError.connectionRefused.with(url: url, detail: message)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return HTTPClientError.couldNotResolveHost.with(url: url, detail: message)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl uses one code for both limits; a request that never got to sending timed out connecting.
            if !reachedPretransfer, let limit = request.connectTimeout {
                return HTTPClientError.connectTimeout.with(url: url, detail: message, limit: limit)
            }
            return HTTPClientError.overallTimeout.with(url: url, detail: message, limit: request.timeout)
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE:
            return HTTPClientError.connectionReset.with(url: url, detail: message)
        case CURLE_URL_MALFORMAT:
            return HTTPClientError.invalidURL.with(url: url, detail: message)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Before sending, the URL's scheme; after, a reply that is not HTTP/1.x or 2 ("HTTP/0.9").
            let error: HTTPClientError = reachedPretransfer ? .invalidResponse : .invalidURL
            return error.with(url: url, detail: message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return HTTPClientError.tlsFailure.with(url: url, detail: message)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING:
            return HTTPClientError.invalidResponse.with(url: url, detail: message)
        default:
            return HTTPClientError.transferFailed.with(url: url, detail: message)
        }
    }
}
