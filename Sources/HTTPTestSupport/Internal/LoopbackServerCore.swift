import Foundation
import Glibc
import Synchronization

/// The state and threads of one ``LoopbackHTTPServer``: an accept thread plus one thread per connection.
///
/// The threads hold this core, not the public server object, so the server's `deinit` can stop them.
final class LoopbackServerCore: Sendable {
    struct State {
        var requests: [LoopbackRequest] = []
        var connectionsAccepted = 0
        var connectionsOpen = 0
        var runningThreads = 0
        var isStopped = false
    }

    let listener: Int32
    let stop: PipeEvent
    let handler: LoopbackHTTPServer.Handler
    let state = Mutex(State())

    init(listener: Int32, stop: PipeEvent, handler: @escaping LoopbackHTTPServer.Handler) {
        self.listener = listener
        self.stop = stop
        self.handler = handler
    }

    /// Starts a thread that runs `body`, counted so that ``stopAndWait(timeout:)`` can wait for it.
    func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.runningThreads += 1 }
        let thread = Thread { [self] in
            body()
            state.withLock { $0.runningThreads -= 1 }
        }
        thread.name = name
        thread.start()
    }

    func acceptLoop() {
        defer { closeDescriptor(listener) }
        while SocketIO.wait(listener, for: Int32(POLLIN), stops: [stop]) == .ready {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                // Out of descriptors, say: back off instead of spinning, and keep serving once it passes.
                guard SocketIO.sleep(.milliseconds(10), stops: [stop]) else { return }
                continue
            }
            // Child processes a test may start (model servers) must not inherit the connection.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            state.withLock {
                $0.connectionsAccepted += 1
                $0.connectionsOpen += 1
            }
            spawn("LoopbackHTTPServer.connection") { [self] in serve(connection) }
        }
    }

    /// Answers requests on one connection until it closes, a response closes it, or the server stops.
    private func serve(_ connection: Int32) {
        var descriptorClosed = false
        defer {
            if !descriptorClosed { closeDescriptor(connection) }
            state.withLock { $0.connectionsOpen -= 1 }
        }
        var reader = RequestReader(descriptor: connection, stop: stop)
        while true {
            let request: LoopbackRequest
            do throws(RequestReader.Failure) {
                request = try reader.next {
                    _ = SocketIO.write(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), stops: [stop])
                }
            } catch {
                if case .malformed(let reason) = error {
                    let body = "Bad request: \(reason)\n"
                    let answer = "HTTP/1.1 400 Bad Request\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    _ = SocketIO.write(connection, Array(answer.utf8), stops: [stop])
                }
                return
            }
            state.withLock { $0.requests.append(request) }
            let writer = ResponseWriter(descriptor: connection, stop: stop, isHead: request.method == "HEAD")
            switch writer.perform(handler(request)) {
            case .keepAlive:
                if request.header("connection")?.lowercased() == "close" { return }
            case .close:
                return
            case .closed:
                descriptorClosed = true
                return
            }
        }
    }

    /// Stops accepting, wakes every thread, and waits for them to finish. `false` when some did not in time.
    func stopAndWait(timeout: Duration) -> Bool {
        let alreadyStopped = state.withLock { state in
            defer { state.isStopped = true }
            return state.isStopped
        }
        guard !alreadyStopped else { return true }
        stop.set()
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.runningThreads > 0 }) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1_000)
        }
        stop.close()
        return true
    }
}
