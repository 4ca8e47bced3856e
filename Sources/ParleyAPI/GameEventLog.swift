import Synchronization

/// Every event of one game, whoever caused it, numbered, for its listeners (`GET /v1/games/{id}/events`): the last
/// ``capacity`` kept, so that a listener that reconnects with the number of the last event it got (`Last-Event-ID`)
/// resumes without losing one.
///
/// ```swift
/// let log = GameEventLog()
/// let items = log.listen(after: nil, heartbeat: .seconds(15))   // from now on
/// log.publish(APIEvent(.narration, ["text": "Market Square"]))  // number 1, to every listener
/// ```
final class GameEventLog: Sendable {
    /// What a listener receives.
    enum Item: Sendable, Equatable {
        /// An event, with its number (1, 2, …: the SSE `id`).
        case event(id: Int, APIEvent)
        /// Events after the listener's last one that are no longer kept: how many.
        case missed(count: Int)
        /// Nothing happened for a heartbeat's interval.
        case heartbeat
        /// The game ended: nothing more comes.
        case ended
    }

    private struct State {
        var events: [(id: Int, event: APIEvent)] = []
        var nextID = 1
        var listeners: [Int: AsyncStream<Item>.Continuation] = [:]
        var nextListener = 0
        var ended = false
    }

    /// How many events are kept for listeners that reconnect.
    let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty log.
    ///
    /// - Parameter capacity: How many events to keep; 1,000 by default.
    init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
    }

    /// The number the next event gets; the last event's number is one less (0 when there was none).
    var nextID: Int { state.withLock { $0.nextID } }

    /// How many listeners there are.
    var listenerCount: Int { state.withLock { $0.listeners.count } }

    /// Numbers an event, keeps it, and sends it to every listener.
    ///
    /// A listener that has fallen more than ``capacity`` events behind (its client does not read) gets the events it
    /// has buffered and then its stream ends: its client reconnects with `Last-Event-ID` and resumes from what is kept.
    ///
    /// - Parameter event: The event.
    func publish(_ event: APIEvent) {
        publish { _ in event }
    }

    /// Numbers an event made with its number (a `speechEnded` whose `audio` names it), keeps it, and sends it to every
    /// listener, as `publish(_:)` does.
    ///
    /// - Parameter make: Makes the event from its number; called once, with the log's lock held.
    /// - Returns: The event made.
    @discardableResult
    func publish(making make: (Int) -> APIEvent) -> APIEvent {
        let (made, lagging) = state.withLock { state -> (APIEvent, [AsyncStream<Item>.Continuation]) in
            let id = state.nextID
            let event = make(id)
            guard !state.ended else { return (event, []) }
            state.nextID += 1
            state.events.append((id, event))
            if state.events.count > capacity { state.events.removeFirst(state.events.count - capacity) }
            var lagging: [AsyncStream<Item>.Continuation] = []
            for (key, listener) in state.listeners {
                if case .dropped = listener.yield(.event(id: id, event)) {
                    state.listeners[key] = nil
                    lagging.append(listener)
                }
            }
            return (event, lagging)
        }
        // Outside the lock: finishing runs the stream's `onTermination`, which takes it.
        for listener in lagging { listener.finish() }
        return made
    }

    /// A new listener's stream: the events kept after `lastID` (or none, without one), then every new event as it is
    /// published, a heartbeat whenever `heartbeat` passes (the first one after it), and `ended` when the game ends.
    ///
    /// - Parameters:
    ///   - lastID: The number of the last event the listener got (`Last-Event-ID`), or `nil` for events from now on.
    ///     When some after it are no longer kept, `missed` says how many come first.
    ///   - heartbeat: How often to send a heartbeat.
    /// - Returns: The stream; ending its iteration (the client left) removes the listener.
    func listen(after lastID: Int?, heartbeat: Duration) -> AsyncStream<Item> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Item.self, bufferingPolicy: .bufferingOldest(capacity + 16))
        let key = state.withLock { state -> Int? in
            if let lastID {
                let first = state.events.first?.id ?? state.nextID
                let missed = min(first, state.nextID) - 1 - lastID
                if missed > 0 { continuation.yield(.missed(count: missed)) }
                for (id, event) in state.events where id > lastID { continuation.yield(.event(id: id, event)) }
            }
            guard !state.ended else { return nil }
            let key = state.nextListener
            state.nextListener += 1
            state.listeners[key] = continuation
            return key
        }
        guard let key else {
            continuation.yield(.ended)
            continuation.finish()
            return stream
        }
        let beats = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: heartbeat)
                if Task.isCancelled { return }
                if case .terminated = continuation.yield(.heartbeat) { return }
            }
        }
        continuation.onTermination = { [weak self] _ in
            beats.cancel()
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: key) }
        }
        return stream
    }

    /// Ends the log: every listener gets `ended` and its stream ends; a listener that comes later gets the events
    /// kept after its `Last-Event-ID`, then `ended`.
    func end() {
        let listeners = state.withLock { state -> [AsyncStream<Item>.Continuation] in
            state.ended = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners {
            listener.yield(.ended)
            listener.finish()
        }
    }

    /// Ends every listener's stream without ending the log (the server is stopping): their clients reconnect, to
    /// another server or later, with `Last-Event-ID`.
    func closeListeners() {
        let listeners = state.withLock { state -> [AsyncStream<Item>.Continuation] in
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
