internal import CCurl
import Foundation

// MARK: - libcurl callbacks (engine thread, inside curl_multi_perform or curl_easy_pause)

extension CurlTransfer {
    /// Handles one header line, status line included. Returns the bytes taken; fewer aborts the transfer.
    ///
    /// At the blank line that ends a final (non-1xx) response's headers, hands the head to the waiting task.
    /// Lines after that are trailers and are ignored.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        restartIdleClock()
        guard !headDelivered else { return bytes.count }
        var line = String(decoding: bytes, as: UTF8.self)
        while line.last == "\n" || line.last == "\r" || line.last == "\r\n" {
            line.removeLast()
        }
        if line.isEmpty {
            let status = responseCode
            if (100..<200).contains(status) {
                // An interim response such as 100 Continue: the real one follows.
                headerFields.removeAll()
                return bytes.count
            }
            headDelivered = true
            let head = ResponseHead(status: status, headers: HTTPHeaders(headerFields))
            headerFields.removeAll()
            return channel.deliverHead(head) ? bytes.count : 0
        }
        if line.hasPrefix("HTTP/") {
            headerFields.removeAll()
        } else if let first = line.first, first == " " || first == "\t", !headerFields.isEmpty {
            // An obsolete folded continuation of the previous field's value.
            let last = headerFields.count - 1
            headerFields[last].value += " " + line.trimmingCharacters(in: .whitespaces)
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headerFields.append(HTTPHeaders.Field(name: name, value: value))
        }
        return bytes.count
    }

    /// Handles a piece of the body. Returns the bytes taken, the pause signal, or 0 to abort.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        restartIdleClock()
        switch channel.offer(Data(bytes)) {
        case .accepted:
            return bytes.count
        case .pause:
            // libcurl keeps these bytes and offers them again after the unpause.
            isPaused = true
            stopIdleClock()
            return parley_curl_writefunc_pause
        case .abort:
            return 0
        }
    }
}
