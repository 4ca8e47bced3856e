import Foundation
import Glibc

/// Carries out one ``LoopbackResponse`` on a connection.
struct ResponseWriter {
    /// What the connection does after the response.
    enum Next {
        /// Read the next request on the same connection.
        case keepAlive
        /// Close the connection normally.
        case close
        /// The descriptor is already closed (reset): just leave.
        case closed
    }

    let descriptor: Int32
    let stop: PipeEvent
    let isHead: Bool

    func perform(_ response: LoopbackResponse) -> Next {
        switch response {
        case .respond(let status, let headers, let body):
            var all = headers
            if !has("content-length", in: headers) && !has("transfer-encoding", in: headers) {
                all.append(("Content-Length", String(body.count)))
            }
            guard send(head(status, all)), isHead || send(body) else { return .close }
            return headers.contains { $0.0.lowercased() == "connection" && $0.1.lowercased() == "close" }
                ? .close : .keepAlive

        case .stream(let status, let headers, let chunks, let interval, let ending):
            guard send(head(status, headers + [("Transfer-Encoding", "chunked")])) else { return .close }
            for (index, chunk) in chunks.enumerated() where !chunk.isEmpty {
                if index > 0, !SocketIO.sleep(interval, stops: [stop]) { return .close }
                let framed = Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk + Data("\r\n".utf8)
                guard send(framed) else { return .close }
            }
            switch ending {
            case .complete: return send(Data("0\r\n\r\n".utf8)) ? .keepAlive : .close
            case .cut: return .close
            case .hang: return hang()
            }

        case .cutBody(let status, let headers, let declaredLength, let partialBody):
            let all =
                headers.filter { $0.0.lowercased() != "content-length" }
                + [("Content-Length", String(declaredLength))]
            _ = send(head(status, all)) && send(partialBody)
            return .close

        case .hang:
            return hang()

        case .reset:
            SocketIO.reset(descriptor)
            return .closed

        case .close:
            return .close

        case .garbage(let bytes):
            _ = send(bytes)
            return .close

        case .delayed(let duration, let response):
            return SocketIO.sleep(duration, stops: [stop]) ? perform(response) : .close

        case .gated(let gate, let timeout, let response):
            gate.pass(timeout: timeout, stop: stop)
            return stop.isSet ? .close : perform(response)
        }
    }

    /// Waits without answering until the client closes the connection or the server stops.
    private func hang() -> Next {
        var discarded: [UInt8] = []
        while SocketIO.read(descriptor, into: &discarded, stops: [stop]) {
            discarded.removeAll(keepingCapacity: true)
        }
        return .close
    }

    private func send(_ bytes: Data) -> Bool {
        SocketIO.write(descriptor, bytes, stops: [stop])
    }

    private func has(_ name: String, in headers: [(String, String)]) -> Bool {
        headers.contains { $0.0.lowercased() == name }
    }

    private func head(_ status: Int, _ headers: [(String, String)]) -> Data {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        return Data((text + "\r\n").utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
