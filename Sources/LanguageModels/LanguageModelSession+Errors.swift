import Foundation

extension LanguageModelSession {
    /// A misuse of a session.
    public enum Error: Swift.Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
        /// A request was made while another was in progress; a session answers one request at a time.
        case concurrentRequests
        /// The transcript was changed while a request was in progress. Parley's sessions accept such changes
        /// (the turn appends to the new transcript) and do not throw this; it exists for source compatibility.
        case transcriptMutationWhileResponding

        /// What happened and what to do.
        public var description: String {
            switch self {
            case .concurrentRequests:
                "The session is already responding to a request. Wait for it to finish (check isResponding), or use "
                    + "another session for parallel conversations."
            case .transcriptMutationWhileResponding:
                "The transcript was changed while the session was responding. Change it between requests."
            }
        }

        /// What happened and what to do.
        public var errorDescription: String? { description }
    }

    /// A tool threw while the session ran it; the turn was rolled back.
    public struct ToolCallError: Swift.Error, LocalizedError, CustomStringConvertible {
        /// The tool that threw.
        public var tool: any Tool
        /// What it threw.
        public var underlyingError: any Swift.Error

        /// Creates the error.
        ///
        /// - Parameters:
        ///   - tool: The tool that threw.
        ///   - underlyingError: What it threw.
        public init(tool: any Tool, underlyingError: any Swift.Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }

        /// Which tool failed and why.
        public var description: String { "The tool \"\(tool.name)\" failed: \(underlyingError)" }

        /// Which tool failed and why.
        public var errorDescription: String? { description }
    }

    /// The model kept calling tools for more rounds than `maximumToolRounds` allows; the turn was rolled back.
    public struct ToolRoundLimitExceeded: Swift.Error, Sendable, LocalizedError, CustomStringConvertible {
        /// The limit that was reached.
        public var limit: Int
        /// The calls the model asked for after the limit.
        public var pendingCalls: [Transcript.ToolCall]

        /// Creates the error.
        ///
        /// - Parameters:
        ///   - limit: The limit.
        ///   - pendingCalls: The calls after the limit.
        public init(limit: Int, pendingCalls: [Transcript.ToolCall]) {
            self.limit = limit
            self.pendingCalls = pendingCalls
        }

        /// What happened and what to do.
        public var description: String {
            "The model called tools for more than \(limit) rounds without answering (next: "
                + pendingCalls.map(\.toolName).joined(separator: ", ")
                + "). Raise maximumToolRounds if the task needs more, or check the tools' outputs: a model repeats "
                + "calls whose output does not tell it what it needs."
        }

        /// What happened and what to do.
        public var errorDescription: String? { description }
    }
}
