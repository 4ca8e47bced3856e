import Foundation
import Glibc

/// Serves the requests of one connection in order (keep-alive and pipelining) until the client closes it, a
/// timeout passes, a response closes it, or the server stops.
///
/// Each request goes through the same steps, and a step that fails answers with a problem and, when the
/// connection can no longer be trusted to be in step (an unread or malformed body, a timeout), closes it:
/// 1. wait for its first byte (``HTTPServer/Timeouts/idle``, woken when the server stops);
/// 2. read and parse the head (``HTTPServer/Timeouts/header`` from the first byte);
/// 3. check it before reading any body: framing, target, `Host`, the bearer token, where it comes from (a page of
///    another site may change nothing), the route, `Expect`;
/// 4. read the body (``HTTPServer/Timeouts/body``), after `100 Continue` when asked;
/// 5. run the handler and write its response, streaming a body while watching for the client going away.
struct Connection {
    /// What happens to the connection after a request.
    enum Next {
        /// Wait for the next request.
        case keepAlive
        /// Close after lingering, so that the client reads the response before the connection goes.
        case close
        /// Close at once: the client is gone, or the connection is cut.
        case abandon
    }

    /// Why a step stopped early.
    private enum Interruption: Error {
        case refused(RequestFailure)
        case timedOut
        case gone
    }

    /// What is known of the request being answered, for the response and the log.
    private struct Exchange {
        var method: HTTPRequestMethod?
        var version = HTTPVersion.http11
        var requestID: String?
        var path: String?
        var wantsKeepAlive = false
        /// The request's `Origin`, for the CORS header fields of its answer.
        var origin: String?
        let started: ContinuousClock.Instant
    }

    /// How a streamed body ended.
    private enum StreamOutcome: Sendable {
        case completed
        case clientGone
        case writeTimedOut
        case producerFailed(String)
        case cancelled
    }

    /// The most bytes read and thrown away while lingering.
    private static let lingerBudget = 4 << 20

    let core: ServerCore
    let socket: ConnectionSocket
    let peer: SocketAddress
    /// The connection's number in the server, for its table of idle connections
    /// (``ServerCore/connectionWaits(_:descriptor:)``).
    let number: Int
    private var input = InputBuffer()

    init(core: ServerCore, socket: ConnectionSocket, peer: SocketAddress, number: Int) {
        self.core = core
        self.socket = socket
        self.peer = peer
        self.number = number
    }

    private var timeouts: HTTPServer.Timeouts { core.timeouts }

    /// Serves requests until the connection is done; the caller closes the socket.
    mutating func serve() async {
        while true {
            // Between requests (until a head is read) the connection is idle: at the connection limit, the one
            // idle longest is closed to admit a new connection.
            core.connectionWaits(number, descriptor: socket.descriptor)
            if input.isEmpty {
                do {
                    try await socket.read(into: &input, until: .now + timeouts.idle, wakesOnDrain: true)
                } catch {
                    if error == .timedOut {
                        core.log(
                            HTTPServerLogEntry(
                                level: .debug, event: .connectionCut,
                                message: "Closed a connection that sent nothing for the idle timeout "
                                    + "(\(timeouts.idle)).", peer: peer))
                    }
                    return
                }
            }
            switch await exchange() {
            case .keepAlive where !core.reactor.isDraining:
                continue
            case .keepAlive, .close:
                await Self.linger(socket, for: timeouts.linger)
                return
            case .abandon:
                return
            }
        }
    }

    // MARK: - One request

    private mutating func exchange() async -> Next {
        var exchange = Exchange(started: .now)
        let head: RequestHead
        switch await readHead(until: exchange.started + timeouts.header) {
        case .success(let parsed):
            // Closed to admit another just as the request came: the client's connection is gone already.
            guard core.connectionWorks(number) else { return .abandon }
            head = parsed
        case .failure(.refused(let failure)): return await refuse(failure, exchange, closing: true)
        case .failure(.timedOut):
            return await refuse(
                RequestFailure(
                    .requestTimeout,
                    "The request's head did not arrive within the header timeout (\(timeouts.header)). "
                        + "Send the request line and header fields at once."),
                exchange, closing: true, event: .connectionCut)
        case .failure(.gone): return .abandon
        }
        exchange.method = head.method
        exchange.version = head.version
        exchange.path = head.pathForLog
        exchange.wantsKeepAlive = head.wantsKeepAlive
        exchange.requestID = core.requestID(offered: head.headers["X-Request-Id"])
        exchange.origin = head.headers["Origin"]

        // Everything that can be refused without reading the body is, and the connection closes if the body is
        // left unread.
        let framing: RequestFraming
        do {
            framing = try RequestFraming(of: head, limits: core.limits)
        } catch {
            // A framing that could not be read leaves the connection out of step with the client.
            return await refuse(error, exchange, closing: true)
        }
        let route: HTTPRouter.Route
        let parameters: [String: String]
        let target: RequestTarget
        do throws(RequestFailure) {
            target = try RequestTarget(parsing: head.target)
            exchange.path = target.path
            if head.version >= .http11 && head.headers.values(for: "Host").count != 1 {
                throw .badRequest("An HTTP/1.1 request needs exactly one Host header field.")
            }
            // Before anything else: a page of another site that made its name resolve to this machine (DNS
            // rebinding) sends its own name in Host.
            if let host = head.headers["Host"], !core.hosts.serves(host) {
                throw RequestFailure(problem: core.hosts.misdirected(host))
            }
            // A browser never sends the token on a preflight: one from an allowed origin is answered without it, and
            // learns only which methods a path takes.
            let preflight = CORSPolicy.isPreflight(head.method, head.headers)
            let allowedPreflight = preflight && core.cors.allows(head.headers["Origin"])
            if !allowedPreflight, let failure = core.token?.check(head.headers) { throw failure }
            if preflight, !allowedPreflight {
                throw RequestFailure(
                    .forbidden,
                    "This server does not answer pages from \(head.headers["Origin"]?.prefix(256) ?? ""): add the "
                        + "origin to its allowed origins (parley serve --cors-origin ORIGIN).")
            }
            // A page of another site may send a request it cannot read the answer of; one that may change
            // something is refused before it reaches a handler.
            if core.cors.refusesCrossSite(head.method, head.headers, hosts: core.hosts) {
                throw RequestFailure(problem: CORSPolicy.crossSiteProblem(origin: head.headers["Origin"]))
            }
            if target.isAsterisk {
                guard head.method == .options else {
                    throw .badRequest("The target * is only for OPTIONS requests. Send a path such as /v1/health.")
                }
                return await send(.noContent(), exchange, closing: framing.hasBody)
            }
            switch core.router.resolve(head.method, target.segments) {
            case .found(let found, let values):
                // A route of its own for OPTIONS is the handler's, with the token as for any request.
                if allowedPreflight, let failure = core.token?.check(head.headers) { throw failure }
                (route, parameters) = (found, values)
            case .options(let allowed):
                if allowedPreflight {
                    return await send(core.cors.preflight(allowing: allowed), exchange, closing: framing.hasBody)
                }
                return await send(
                    .noContent(headers: ["Allow": Self.list(allowed)]), exchange, closing: framing.hasBody)
            case .methodNotAllowed(let allowed):
                throw RequestFailure(
                    .methodNotAllowed,
                    "\(target.path) does not take \(head.method.rawValue.prefix(32)) requests; it takes "
                        + "\(Self.list(allowed)).", headers: ["Allow": Self.list(allowed)])
            case .notFound:
                throw RequestFailure(.notFound, "Nothing is at \(target.path.prefix(256)). Check the path.")
            }
            if head.version >= .http11, let expectation = head.headers["Expect"] {
                guard ASCII.equalsIgnoringCase(expectation, "100-continue") else {
                    throw RequestFailure(
                        .expectationFailed, "The only expectation this server meets is Expect: 100-continue.")
                }
            }
        } catch {
            return await refuse(error, exchange, closing: framing.hasBody)
        }

        if framing.hasBody, head.version >= .http11, head.headers.contains(name: "Expect") {
            do {
                try await socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), stallTimeout: timeouts.write)
            } catch {
                return .abandon
            }
        }
        let body: Data
        switch await readBody(framing, until: .now + timeouts.body) {
        case .success(let read): body = read
        case .failure(.refused(let failure)): return await refuse(failure, exchange, closing: true)
        case .failure(.timedOut):
            return await refuse(
                RequestFailure(
                    .requestTimeout,
                    "The request's body did not arrive within the body timeout (\(timeouts.body)). "
                        + "Send the whole body at once."),
                exchange, closing: true, event: .connectionCut)
        case .failure(.gone): return .abandon
        }

        let request = HTTPServerRequest(
            id: exchange.requestID!, method: head.method, target: head.target, path: target.path,
            pathSegments: target.segments, pathParameters: parameters, route: route.pattern.text, query: target.query,
            version: head.version, headers: head.headers, body: body, peer: peer,
            isSameOrigin: core.hosts.isSameOrigin(head.headers))
        guard let response = await respond(with: route, to: request) else { return .abandon }
        return await send(response, exchange, closing: false)
    }

    /// Reads until the head is complete.
    private mutating func readHead(until deadline: ContinuousClock.Instant) async -> Result<RequestHead, Interruption> {
        var parser = RequestHeadParser(limits: core.limits)
        while true {
            do {
                if let head = try parser.parse(&input) { return .success(head) }
            } catch {
                return .failure(.refused(error))
            }
            do {
                try await socket.read(into: &input, until: deadline)
            } catch {
                return .failure(error == .timedOut ? .timedOut : .gone)
            }
        }
    }

    /// Reads the body as framed.
    private mutating func readBody(
        _ framing: RequestFraming, until deadline: ContinuousClock.Instant
    ) async -> Result<Data, Interruption> {
        switch framing {
        case .none:
            return .success(Data())
        case .length(let length):
            while input.count < length {
                do {
                    try await socket.read(into: &input, until: deadline)
                } catch {
                    return .failure(error == .timedOut ? .timedOut : .gone)
                }
            }
            return .success(Data(input.take(length)))
        case .chunked:
            var decoder = ChunkedBodyDecoder(limits: core.limits)
            while true {
                do {
                    if try decoder.decode(&input) { return .success(decoder.body) }
                } catch {
                    return .failure(.refused(error))
                }
                do {
                    try await socket.read(into: &input, until: deadline)
                } catch {
                    return .failure(error == .timedOut ? .timedOut : .gone)
                }
            }
        }
    }

    /// Runs the handler; `nil` when its task was cancelled (the server is cutting connections).
    private func respond(with route: HTTPRouter.Route, to request: HTTPServerRequest) async -> HTTPServerResponse? {
        do {
            return try await route.handler(request)
        } catch let problem as ProblemDetails {
            return .problem(problem)
        } catch {
            if Task.isCancelled { return nil }
            core.log(
                HTTPServerLogEntry(
                    level: .error, event: .handlerFailed,
                    message: "The handler of \(request.method) \(route.pattern) threw: \(error)", requestID: request.id,
                    peer: peer, method: request.method, path: request.path, status: .internalServerError))
            return .problem(
                ProblemDetails(
                    .internalServerError,
                    detail: "The server failed while handling request \(request.id). Its log has the error under that "
                        + "request id."))
        }
    }

    // MARK: - Responses

    /// Answers with a problem.
    private func refuse(
        _ failure: RequestFailure, _ exchange: Exchange, closing: Bool,
        event: HTTPServerLogEntry.Event = .requestRefused
    ) async -> Next {
        core.log(
            HTTPServerLogEntry(
                level: event == .connectionCut || failure.problem.status.code >= 413 ? .warning : .info, event: event,
                message: failure.problem.description, requestID: exchange.requestID, peer: peer,
                method: exchange.method, path: exchange.path, status: failure.problem.status))
        return await send(
            .problem(failure.problem, headers: failure.headers), exchange, closing: closing, logsCompletion: false)
    }

    /// Writes a response; `closing` forces the connection to close after it.
    private func send(
        _ proposed: HTTPServerResponse, _ exchange: Exchange, closing: Bool, logsCompletion: Bool = true
    ) async -> Next {
        var response = proposed
        core.cors.decorate(&response.headers, origin: exchange.origin)
        if let problem = ResponseHead.problem(status: response.status, headers: response.headers) {
            core.log(
                HTTPServerLogEntry(
                    level: .error, event: .handlerFailed,
                    message: "The handler's response is invalid, so the client got 500: \(problem).",
                    requestID: exchange.requestID, peer: peer, method: exchange.method, path: exchange.path,
                    status: .internalServerError))
            response = .problem(
                ProblemDetails(
                    .internalServerError,
                    detail: "The server made an invalid response to request \(exchange.requestID ?? "?"). Its log "
                        + "says why."))
        }
        let closes =
            closing || !exchange.wantsKeepAlive || ResponseHead.asksToClose(response.headers) || core.reactor.isDraining
        let isHead = exchange.method == .head
        func head(_ framing: ResponseHead.Framing, closes: Bool) -> [UInt8] {
            ResponseHead(
                status: response.status, headers: response.headers, framing: framing, closesConnection: closes,
                announcesKeepAlive: !closes && exchange.version == .http10, requestID: exchange.requestID
            ).serialized()
        }
        func logCompletion() {
            guard logsCompletion else { return }
            core.log(
                HTTPServerLogEntry(
                    level: .info, event: .requestCompleted,
                    message: "\(exchange.method?.rawValue ?? "?") \(exchange.path ?? "?") \(response.status)",
                    requestID: exchange.requestID, peer: peer, method: exchange.method, path: exchange.path,
                    status: response.status, duration: .now - exchange.started))
        }

        guard case .stream(let stream) = response.body, !isHead, !response.status.forbidsBody else {
            var bytes: [UInt8]
            switch response.body {
            case .bytes(let data) where !response.status.forbidsBody:
                bytes = head(.length(data.count), closes: closes)
                if !isHead { bytes.append(contentsOf: data) }
            case .bytes, .stream:
                bytes = head(response.status.forbidsBody ? .none : .unframed, closes: closes)
            }
            do {
                try await socket.write(bytes, stallTimeout: timeouts.write)
            } catch {
                logWriteFailure(error, exchange)
                return .abandon
            }
            logCompletion()
            return closes ? .close : .keepAlive
        }

        // A streamed body: chunked, or up to the end of the connection for an HTTP/1.0 client.
        let chunked = exchange.version >= .http11
        let closesAfter = closes || !chunked
        do {
            try await socket.write(
                head(chunked ? .chunked : .unframed, closes: closesAfter), stallTimeout: timeouts.write)
        } catch {
            logWriteFailure(error, exchange)
            return .abandon
        }
        let channel = BodyChannel(
            socket: socket, framing: chunked ? .chunked : .closeDelimited, stallTimeout: timeouts.write)
        let outcome = await Self.produce(stream, into: channel, watching: socket)
        channel.close()
        switch outcome {
        case .completed:
            if chunked {
                do {
                    try await socket.write(Array("0\r\n\r\n".utf8), stallTimeout: timeouts.write)
                } catch {
                    logWriteFailure(error, exchange)
                    return .abandon
                }
            }
            logCompletion()
            return closesAfter ? .close : .keepAlive
        case .clientGone, .writeTimedOut, .producerFailed, .cancelled:
            let (level, reason): (HTTPServerLogEntry.Level, String) =
                switch outcome {
                case .clientGone: (.info, "the client went away")
                case .writeTimedOut: (.warning, "the client stopped reading for the write timeout (\(timeouts.write))")
                case .producerFailed(let error): (.error, "its producer threw: \(error)")
                default: (.info, "the server is stopping")
                }
            core.log(
                HTTPServerLogEntry(
                    level: level, event: .streamEnded,
                    message: "The streamed body ended after \(channel.bytesWritten) bytes: \(reason).",
                    requestID: exchange.requestID, peer: peer, method: exchange.method, path: exchange.path,
                    status: response.status, duration: .now - exchange.started))
            return .abandon
        }
    }

    /// Runs a body's producer beside a watcher of the socket: whichever ends first cancels the other, so a client
    /// that goes away cancels the producer at once, even while it waits for its next piece.
    private static func produce(
        _ stream: ResponseBodyStream, into channel: BodyChannel, watching socket: ConnectionSocket
    ) async -> StreamOutcome {
        await withTaskGroup(of: StreamOutcome?.self) { group in
            group.addTask {
                do {
                    try await stream.produce(ResponseBodyWriter(channel: channel))
                    return Task.isCancelled ? .cancelled : .completed
                } catch {
                    switch channel.failure {
                    case .timedOut?: return .writeTimedOut
                    case .cancelled?: return .cancelled
                    case .some: return .clientGone
                    case nil: return Task.isCancelled ? .cancelled : .producerFailed(String(describing: error))
                    }
                }
            }
            group.addTask {
                await socket.waitForHangUp() ? .clientGone : nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .cancelled
        }
    }

    private func logWriteFailure(_ error: IOFailure, _ exchange: Exchange) {
        guard error == .timedOut else { return }
        core.log(
            HTTPServerLogEntry(
                level: .warning, event: .connectionCut,
                message: "Cut the connection: the client stopped reading the response for the write timeout "
                    + "(\(timeouts.write)).", requestID: exchange.requestID, peer: peer, method: exchange.method,
                path: exchange.path))
    }

    private static func list(_ methods: [HTTPRequestMethod]) -> String {
        methods.map(\.rawValue).joined(separator: ", ")
    }

    // MARK: - Closing

    /// Ends the server's side and reads what the client still sends for a while, then returns so that the
    /// caller closes: closing with unread bytes would reset the connection, and a reset can destroy the response
    /// before the client read it.
    static func linger(_ socket: ConnectionSocket, for duration: Duration) async {
        socket.shutDownWriting()
        let deadline = ContinuousClock.now + duration
        var discarded = InputBuffer()
        var total = 0
        while total < lingerBudget {
            do {
                total += try await socket.read(into: &discarded, until: deadline, wakesOnDrain: true)
            } catch {
                return
            }
            discarded.consume(discarded.count)
        }
    }
}
