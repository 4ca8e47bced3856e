import ParleyBasics

extension LanguageModelSession {
    /// Token counts of a response or a whole session, in Apple 27's shape.
    ///
    /// ```swift
    /// let response = try await session.respond(to: "Hello")
    /// print(response.usage.input.totalTokenCount, response.usage.input.cachedTokenCount)
    /// print(response.usage.output.totalTokenCount, session.usage.totalTokenCount)
    /// ```
    ///
    /// The counts are what the backend reported, summed over the requests of a turn (a turn with tool calls makes
    /// several); zero where it reported nothing. The server backend fills them from the server's `usage`
    /// (`prompt_tokens`, `prompt_tokens_details.cached_tokens`, `completion_tokens`,
    /// `completion_tokens_details.reasoning_tokens`, or llama-server's `timings`), the scripted model and the mock
    /// from their token rule. The same figures with timings, as the backend gave them, are `generationUsage`.
    public struct Usage: Sendable, Equatable, CustomStringConvertible {
        /// Token counts of what the model read.
        public struct Input: Sendable, Equatable {
            /// The tokens of the transcript the model read.
            public var totalTokenCount: Int
            /// Of those, the tokens served from a cache; at most `totalTokenCount`.
            public var cachedTokenCount: Int

            /// Creates input token counts.
            ///
            /// - Parameters:
            ///   - totalTokenCount: The tokens read.
            ///   - cachedTokenCount: Of those, the tokens served from a cache.
            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Token counts of what the model wrote.
        public struct Output: Sendable, Equatable {
            /// The tokens generated.
            public var totalTokenCount: Int
            /// Of those, the tokens of the model's reasoning; at most `totalTokenCount`.
            public var reasoningTokenCount: Int

            /// Creates output token counts.
            ///
            /// - Parameters:
            ///   - totalTokenCount: The tokens generated.
            ///   - reasoningTokenCount: Of those, the reasoning tokens.
            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        /// What the model read.
        public var input: Input
        /// What the model wrote.
        public var output: Output
        /// Other figures the backend reported, by name.
        public var metadata: [String: GeneratedContent]

        /// Creates usage figures.
        ///
        /// - Parameters:
        ///   - input: What the model read.
        ///   - output: What the model wrote.
        ///   - metadata: Other figures, by name; each is kept as its generated content.
        public init(input: Input, output: Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) {
            self.input = input
            self.output = output
            self.metadata = metadata.mapValues(\.generatedContent)
        }

        /// Apple's figures for a backend's detailed usage (`nil`: nothing reported, all zero). Timings become
        /// `metadata` (`promptSeconds`, `generationSeconds`).
        ///
        /// - Parameter usage: The backend's usage.
        public init(_ usage: GenerationUsage?) {
            let cached = usage?.cachedPromptTokens ?? 0
            let reasoning = usage?.reasoningTokens ?? 0
            self.input = Input(
                totalTokenCount: usage?.promptTokens ?? 0, cachedTokenCount: min(cached, usage?.promptTokens ?? 0))
            self.output = Output(
                totalTokenCount: usage?.completionTokens ?? 0,
                reasoningTokenCount: min(reasoning, usage?.completionTokens ?? 0))
            var metadata: [String: GeneratedContent] = [:]
            if let seconds = usage?.promptSeconds { metadata["promptSeconds"] = seconds.generatedContent }
            if let seconds = usage?.generationSeconds { metadata["generationSeconds"] = seconds.generatedContent }
            self.metadata = metadata
        }

        /// All tokens: read and written.
        public var totalTokenCount: Int { input.totalTokenCount.saturatingAdding(output.totalTokenCount) }

        /// `input 120 (cached 100), output 24`.
        public var description: String {
            let reasoning = output.reasoningTokenCount > 0 ? " (reasoning \(output.reasoningTokenCount))" : ""
            return "input \(input.totalTokenCount) (cached \(input.cachedTokenCount)), output "
                + "\(output.totalTokenCount)\(reasoning)"
        }
    }
}
