import Synchronization

/// llama-server's slots as one backend and all its copies use them: which key's KV cache each slot holds, whether it
/// changed since it was last saved or restored, and which request uses it now.
///
/// Before a request for key K (a `Lease`), the table finds K's slot; when no slot holds K, it takes a free slot or
/// the one used longest ago, saves that slot's holder to the holder's file if its cache changed since it was saved
/// or restored, and restores K's file into it. The request is then pinned to the slot (`id_slot`), and the slot is
/// the request's until it is released. So a slot's file is written only when its holder changes and when the game
/// saves or closes (`saveAll`), never on every turn.
///
/// Prewarms are background leases: one never delays a real (foreground) request. It gives up when a foreground
/// request runs or waits, and a foreground request that starts cancels every prewarm of another key (one of its own
/// key is doing its work, and is waited for).
///
/// A server that answers a slot action with 404, 405 or 501 keeps no caches: the table is `unavailable` from then on,
/// and every lease is unpinned (no `id_slot`), so the backend works exactly as without caches.
actor SlotTable {
    /// A slot action.
    enum Action: String, Sendable {
        /// Writes the slot's cache to a file.
        case save
        /// Reads a file into the slot's cache.
        case restore
    }

    /// What a slot action came to.
    enum Outcome: Sendable, Equatable {
        /// Done, in this many milliseconds (the server's, or the wall time), moving this many bytes.
        case done(milliseconds: Double, bytes: Int)
        /// The server has no slot actions (404, 405, 501).
        case unsupported
        /// The server answered with another error: a file that does not exist yet, or that it cannot read.
        case refused
        /// No answer: the connection failed, timed out, or was cancelled.
        case failed
    }

    /// Sends a slot action to the server.
    typealias Perform = @Sendable (_ action: Action, _ slot: Int, _ fileName: String) async -> Outcome

    /// A key and the file its cache is kept in.
    struct Holder: Sendable, Equatable {
        var key: SlotCacheKey
        var fileName: String
    }

    /// What a pinned request needs: its key, the key's file, and how many slots the server has.
    struct Pin: Sendable, Equatable {
        var holder: Holder
        var slotCount: Int
    }

    /// A request's claim on a slot, from `lease` to `release`.
    struct Lease: Sendable {
        /// Identifies the lease.
        let id: UInt64
        /// The slot to pin the request to, or `nil` to send it unpinned.
        let slot: Int?
        /// Whether it is a prewarm.
        let background: Bool
    }

    /// One slot as the table knows it.
    struct Slot: Sendable, Equatable {
        /// Whose cache the slot holds, if any key's.
        var holder: Holder?
        /// Whether the cache changed since it was saved or restored.
        var dirty = false
        /// When the slot was last released, in releases.
        var lastUse: UInt64 = 0
        /// The lease using the slot now.
        var leasedBy: UInt64?
    }

    /// Cancels a prewarm from outside the task that runs it.
    final class Cancellation: Sendable {
        // The Mutex protects whether it was cancelled and the handler to run; the class lets the table and the
        // prewarm share them.
        private let state = Mutex<(cancelled: Bool, handler: (@Sendable () -> Void)?)>((false, nil))

        /// Cancels: runs the handler once, now or as soon as it is set.
        func cancel() {
            let handler = state.withLock { state -> (@Sendable () -> Void)? in
                state.cancelled = true
                defer { state.handler = nil }
                return state.handler
            }
            handler?()
        }

        /// Sets what cancelling does; runs it at once when already cancelled.
        func onCancel(_ handler: @escaping @Sendable () -> Void) {
            let cancelled = state.withLock { state -> Bool in
                if !state.cancelled { state.handler = handler }
                return state.cancelled
            }
            if cancelled { handler() }
        }

        /// Whether it was cancelled.
        var isCancelled: Bool { state.withLock { $0.cancelled } }
    }

    /// A request waiting for a slot: resumed with `true` to look again, `false` to give up.
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// What the server's answers showed so far.
    private(set) var support: SlotCacheSupport = .unknown
    /// What was done with slot files so far.
    private(set) var statistics = SlotCacheStatistics()
    /// The slots, once a pinned lease said how many there are.
    private(set) var slots: [Slot] = []
    private var nextID: UInt64 = 0
    private var releases: UInt64 = 0
    /// Foreground leases from `lease` to `release`, waiting ones included.
    private var foreground = 0
    /// Prewarms from `lease` to `release`, by lease id.
    private var background: [UInt64: (key: SlotCacheKey?, cancellation: Cancellation?)] = [:]
    private var waiters: [Waiter] = []

    // MARK: - Leases

    /// Claims a slot for a request.
    ///
    /// - Parameters:
    ///   - key: The request's key, if it has one (prewarms of other keys are cancelled for it).
    ///   - pin: Where to pin it, or `nil` to send it unpinned (no key, a server without slots).
    ///   - isBackground: Whether it is a prewarm.
    ///   - cancellation: Cancels the prewarm's request, for a prewarm.
    ///   - perform: Sends slot actions.
    /// - Returns: The lease; release it when the request is over.
    /// - Throws: `CancellationError` when the task is cancelled while waiting, or a prewarm gives way.
    func lease(
        key: SlotCacheKey?, pin: Pin?, background isBackground: Bool, cancellation: Cancellation? = nil,
        perform: Perform
    ) async throws -> Lease {
        nextID += 1
        let id = nextID
        if isBackground {
            guard foreground == 0 else {
                statistics.cancelledPrewarms += 1
                throw CancellationError()
            }
            background[id] = (key, cancellation)
        } else {
            foreground += 1
            makeRoom(for: key)
        }
        do {
            return try await claim(id: id, pin: pin, background: isBackground, perform: perform)
        } catch {
            if isBackground {
                background[id] = nil
                statistics.cancelledPrewarms += 1
            } else {
                foreground -= 1
            }
            wakeAll()
            throw error
        }
    }

    /// Ends a lease: the slot is free again, and its cache counts as changed.
    ///
    /// - Parameters:
    ///   - lease: The lease.
    ///   - gaveWay: Whether it was a prewarm that was cancelled for a real request.
    func release(_ lease: Lease, gaveWay: Bool = false) {
        if lease.background {
            background[lease.id] = nil
            if gaveWay { statistics.cancelledPrewarms += 1 }
        } else {
            foreground -= 1
        }
        if let slot = lease.slot, slots.indices.contains(slot), slots[slot].leasedBy == lease.id {
            releases += 1
            slots[slot].leasedBy = nil
            slots[slot].lastUse = releases
            if slots[slot].holder != nil { slots[slot].dirty = true }
        }
        wakeAll()
    }

    /// Counts a prewarm that reached the server.
    func countPrewarm() {
        statistics.prewarms += 1
    }

    /// Finds the request's slot, waiting while every candidate is in use; switches the slot's holder when needed.
    private func claim(id: UInt64, pin: Pin?, background isBackground: Bool, perform: Perform) async throws -> Lease {
        let unpinned = Lease(id: id, slot: nil, background: isBackground)
        guard let pin, pin.slotCount > 0 else { return unpinned }
        if slots.count != pin.slotCount, slots.allSatisfy({ $0.leasedBy == nil }) {
            // First use, or a server restarted with another --parallel: nothing is known of its slots.
            slots = Array(repeating: Slot(), count: pin.slotCount)
        }
        while true {
            try Task.checkCancellation()
            guard support != .unavailable else { return unpinned }
            if isBackground, foreground > 0 { throw CancellationError() }
            if let slot = slots.firstIndex(where: { $0.holder?.key == pin.holder.key }) {
                if slots[slot].leasedBy == nil {
                    slots[slot].leasedBy = id
                    return Lease(id: id, slot: slot, background: isBackground)
                }
            } else if let slot = freeSlot() {
                slots[slot].leasedBy = id
                await switchHolder(of: slot, to: pin.holder, perform: perform)
                guard support != .unavailable else {
                    slots[slot].leasedBy = nil
                    return unpinned
                }
                return Lease(id: id, slot: slot, background: isBackground)
            }
            guard try await wait(id: id) else { throw CancellationError() }
        }
    }

    /// A slot nobody uses: one that holds no key's cache, else the one used longest ago.
    private func freeSlot() -> Int? {
        let free = slots.indices.filter { slots[$0].leasedBy == nil }
        return free.first { slots[$0].holder == nil } ?? free.min { slots[$0].lastUse < slots[$1].lastUse }
    }

    /// Saves the slot's holder when its cache changed, then restores the new holder's file into the slot. A restore
    /// that fails leaves the slot to the new holder all the same: the server then processes the whole prompt (and
    /// clears a slot it could not restore), exactly as without caches.
    private func switchHolder(of slot: Int, to holder: Holder, perform: Perform) async {
        if let previous = slots[slot].holder, slots[slot].dirty {
            let saved = await perform(.save, slot, previous.fileName)
            record(saved, of: .save)
            guard saved != .unsupported else { return }
        }
        let restored = await perform(.restore, slot, holder.fileName)
        record(restored, of: .restore)
        guard restored != .unsupported else { return }
        slots[slot].holder = holder
        slots[slot].dirty = false
    }

    /// Counts an action's outcome and learns from it whether the server keeps caches.
    private func record(_ outcome: Outcome, of action: Action) {
        switch outcome {
        case .done(let milliseconds, let bytes):
            support = .available
            if action == .save {
                statistics.saves += 1
                statistics.savedBytes += bytes
                statistics.saveMilliseconds += milliseconds
            } else {
                statistics.restores += 1
                statistics.restoredBytes += bytes
                statistics.restoreMilliseconds += milliseconds
            }
        case .unsupported:
            support = .unavailable
            for index in slots.indices { slots[index].holder = nil }
        case .refused, .failed:
            if outcome == .refused, support == .unknown { support = .available }
            if action == .save { statistics.failedSaves += 1 } else { statistics.failedRestores += 1 }
        }
    }

    // MARK: - Saving everything

    /// Saves every slot whose cache changed since it was saved or restored, to its holder's file: for the game's
    /// saves and its close. Waits for the requests using those slots, and cancels prewarms.
    ///
    /// - Parameter perform: Sends slot actions.
    func saveAll(perform: Perform) async {
        nextID += 1
        let id = nextID
        for slot in slots.indices {
            while support != .unavailable, slots.indices.contains(slot), let holder = slots[slot].holder,
                slots[slot].dirty
            {
                if let user = slots[slot].leasedBy {
                    background[user]?.cancellation?.cancel()
                    guard (try? await wait(id: id)) == true else { return }
                    continue
                }
                slots[slot].leasedBy = id
                let outcome = await perform(.save, slot, holder.fileName)
                record(outcome, of: .save)
                if slots.indices.contains(slot) {
                    slots[slot].leasedBy = nil
                    // A failed save is not tried again now; the next save or close tries again.
                    if case .done = outcome { slots[slot].dirty = false }
                }
                wakeAll()
                break
            }
        }
    }

    // MARK: - Waiting

    /// A foreground request is starting: prewarms of other keys stop, and waiting prewarms give up.
    private func makeRoom(for key: SlotCacheKey?) {
        for (_, work) in background where key == nil || work.key != key {
            work.cancellation?.cancel()
        }
        wakeAll()
    }

    /// Waits until a lease is released; `false` when the waiting task was cancelled.
    private func wait(id: UInt64) async throws -> Bool {
        let resumed = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    waiters.append(Waiter(id: id, continuation: continuation))
                }
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
        try Task.checkCancellation()
        return resumed
    }

    private func stopWaiting(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }

    /// Lets every waiting request look again.
    private func wakeAll() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }
}
