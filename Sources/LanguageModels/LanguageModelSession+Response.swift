import Synchronization

extension LanguageModelSession {
    /// The result of a turn: the answer, its raw content, and the entries the turn added to the transcript.
    public struct Response<Content: Generable>: Sendable {
        /// The answer: a string, or a value of the generated type.
        public let content: Content
        /// The answer as generated content (a string for text answers).
        public let rawContent: GeneratedContent
        /// The entries the turn appended: its prompt, any tool calls and outputs, and the response.
        public let transcriptEntries: ArraySlice<Transcript.Entry>
        /// Token counts of the turn's requests (Apple 27's shape); zero where the backend reported nothing.
        public let usage: Usage
        /// Token counts and timings of the turn's requests as the backend reported them, `nil` if it did not.
        public let generationUsage: GenerationUsage?

        init(
            content: Content, rawContent: GeneratedContent, transcriptEntries: ArraySlice<Transcript.Entry>,
            usage: GenerationUsage?
        ) {
            self.content = content
            self.rawContent = rawContent
            self.transcriptEntries = transcriptEntries
            self.usage = Usage(usage)
            self.generationUsage = usage
        }
    }

    /// A response being generated: an `AsyncSequence` of snapshots, each holding the whole answer so far.
    ///
    /// ```swift
    /// let stream = session.streamResponse(to: "Tell me about the old mill.")
    /// for try await snapshot in stream {
    ///     render(snapshot.content)      // the text so far, not just the new part
    /// }
    /// let response = try await stream.collect()
    /// ```
    ///
    /// The turn starts when the stream is created. Cancelling the task that iterates it, or dropping the stream,
    /// cancels the turn and rolls its entries back.
    public struct ResponseStream<Content: Generable>: AsyncSequence, Sendable {
        /// The answer so far.
        public struct Snapshot: Sendable {
            /// The answer so far as its partially generated type.
            public var content: Content.PartiallyGenerated
            /// The answer so far as generated content.
            public var rawContent: GeneratedContent
        }

        /// The element type: a snapshot.
        public typealias Element = Snapshot

        let snapshots: AsyncThrowingStream<Snapshot, any Swift.Error>
        let outcome: Outcome

        /// Where the producing task leaves the final response for `collect()`.
        final class Outcome: Sendable {
            let response = Mutex<Response<Content>?>(nil)
            /// The task running the turn, `nil` when the turn never started.
            let producer = Mutex<Task<Void, Never>?>(nil)

            /// Waits until the turn has ended (committed or rolled back), so the session is free again.
            func settle() async {
                if let task = producer.withLock({ $0 }) { await task.value }
            }
        }

        /// Iterates over the snapshots.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Snapshot, any Swift.Error>.AsyncIterator
            let outcome: Outcome

            /// The next snapshot, or `nil` when the response is complete.
            ///
            /// When it returns `nil` or throws, the turn has ended: the session no longer `isResponding`, and its
            /// transcript holds the turn's entries or, after an error or cancellation, is as it was before.
            ///
            /// - Throws: The turn's error (as `respond` throws it: see `respond(to:options:)`); `CancellationError`
            ///   when the iterating task was cancelled.
            public mutating func next() async throws -> Snapshot? {
                let snapshot: Snapshot?
                do {
                    snapshot = try await base.next()
                } catch {
                    await outcome.settle()
                    throw LanguageModelSession.thrown(error)
                }
                if let snapshot { return snapshot }
                // The stream ended because the turn finished or because this task was cancelled: wait for the
                // turn to end either way, so that a new request made right after this loop finds the session free.
                await outcome.settle()
                if outcome.response.withLock({ $0 == nil }) { throw CancellationError() }
                return nil
            }
        }

        /// An iterator over the snapshots.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: snapshots.makeAsyncIterator(), outcome: outcome)
        }

        /// Waits for the whole response.
        ///
        /// - Returns: The same response `respond` would have returned.
        /// - Throws: The turn's error.
        public func collect() async throws -> Response<Content> {
            for try await _ in self {}
            guard let response = outcome.response.withLock({ $0 }) else { throw CancellationError() }
            return response
        }
    }

    /// Starts a turn whose answer streams.
    ///
    /// - Parameters:
    ///   - request: What the turn asks.
    ///   - snapshot: Makes a snapshot from the answer's text so far and the generation's id (the same for every
    ///     snapshot of the response, so a `PartiallyGenerated` value keeps its `id`), or `nil` while it does not
    ///     convert yet.
    ///   - content: Converts the final raw content to `Content`.
    func stream<Content: Generable>(
        _ request: TurnRequest,
        snapshot: @escaping @Sendable (String, GenerationID) -> ResponseStream<Content>.Snapshot?,
        content: @escaping @Sendable (GeneratedContent) throws -> Content
    ) -> ResponseStream<Content> {
        let outcome = ResponseStream<Content>.Outcome()
        let (snapshots, continuation) = AsyncThrowingStream<ResponseStream<Content>.Snapshot, any Swift.Error>
            .makeStream(
                bufferingPolicy: .bufferingNewest(1))
        // Claim the session now, so that a request made right after this one sees it busy.
        let turn: BegunTurn
        do {
            turn = try beginTurn()
        } catch {
            continuation.finish(throwing: error)
            return ResponseStream(snapshots: snapshots, outcome: outcome)
        }
        let generation = GenerationID()
        let task = Task {
            do {
                let result = try await runTurn(request, in: turn) { text in
                    if let value = snapshot(text, generation) { continuation.yield(value) }
                }
                let final = try result.response(content)
                outcome.response.withLock { $0 = final }
                var raw = result.rawContent
                raw.id = generation
                if result.stoppedAtToolCalls {
                    // No answer was generated; the last snapshot is the empty one, if the type has it.
                    if let partial = try? Content.PartiallyGenerated(raw) {
                        continuation.yield(.init(content: partial, rawContent: raw))
                    }
                } else {
                    continuation.yield(.init(content: try Content.PartiallyGenerated(raw), rawContent: raw))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        outcome.producer.withLock { $0 = task }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return ResponseStream(snapshots: snapshots, outcome: outcome)
    }
}

// MARK: - Answers known without a turn

extension LanguageModelSession.Response where Content == String {
    /// A response holding `text`, made without asking a model (a refusal's explanation): it added no entries.
    static func fixed(_ text: String) -> Self {
        Self(content: text, rawContent: GeneratedContent(kind: .string(text)), transcriptEntries: [], usage: nil)
    }
}

extension LanguageModelSession.ResponseStream where Content == String {
    /// A stream of one snapshot holding the whole of `response`, whose `collect()` gives `response`.
    static func fixed(_ response: LanguageModelSession.Response<String>) -> Self {
        let outcome = Outcome()
        outcome.response.withLock { $0 = response }
        let (snapshots, continuation) = AsyncThrowingStream<Snapshot, any Swift.Error>.makeStream()
        continuation.yield(Snapshot(content: response.content, rawContent: response.rawContent))
        continuation.finish()
        return Self(snapshots: snapshots, outcome: outcome)
    }
}
