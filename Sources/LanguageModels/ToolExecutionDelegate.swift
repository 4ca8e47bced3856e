/// What a session does with one tool call the model asked for, as the app decides it.
///
/// See `ToolExecutionDelegate`.
public enum ToolExecutionDecision: Sendable {
    /// Run the tool, as the session does without a delegate.
    case run
    /// Do not run it: the model gets a tool output saying the app did not allow the call, and why, and goes on.
    case deny(reason: String)
    /// Do not run it: use these segments as its output (a cached result, or one the app got elsewhere).
    case provideOutput([Transcript.Segment])
    /// Run neither this call nor the turn's later ones, and end the turn now without asking the model again.
    ///
    /// Each call that did not run gets a tool output saying the app stopped the turn, so the transcript stays well
    /// formed and the model knows in later turns. The turn succeeds: a text turn returns an empty answer whose
    /// `transcriptEntries` end with the tool calls and outputs; a schema turn returns null content; a typed turn
    /// throws `LanguageModelSession.ToolExecutionStopped` (with the same entries, which stay in the transcript) when
    /// the type cannot be made from null.
    case stop
}

/// Decides, for each tool call the model asks for, whether the session runs it, refuses it, uses an output the app
/// gives, or stops the turn: the app's hook into the tool loop.
///
/// ```swift
/// struct AskThePlayer: ToolExecutionDelegate {
///     func toolCallDecision(
///         for toolCall: Transcript.ToolCall, in session: LanguageModelSession
///     ) async -> ToolExecutionDecision {
///         toolCall.toolName == "giveItem" ? .deny(reason: "The player keeps their items.") : .run
///     }
/// }
/// session.toolExecutionDelegate = AskThePlayer()
/// // or, with a closure:
/// session.toolExecutionDelegate = ToolCallDecider { call in call.toolName == "offerTrade" ? .stop : .run }
/// ```
///
/// The session asks for each call in order, before running it; a denied call or an output the app provides is
/// recorded as that call's `toolOutput` entry (its id is the call's), exactly where the tool's own output would be.
/// The decision is the delegate's return value, so every outcome is in the transcript.
public protocol ToolExecutionDelegate: Sendable {
    /// What to do with a tool call.
    ///
    /// - Parameters:
    ///   - toolCall: The call the model asked for: the tool's name and the arguments, not yet checked.
    ///   - session: The session running the turn. Reading its `transcript` gives the conversation before the turn.
    /// - Returns: Run it, deny it, provide its output, or stop the turn.
    func toolCallDecision(
        for toolCall: Transcript.ToolCall, in session: LanguageModelSession
    ) async
        -> ToolExecutionDecision
}

/// A `ToolExecutionDelegate` made of a closure.
///
/// ```swift
/// session.toolExecutionDelegate = ToolCallDecider { call in
///     call.toolName == "lookUpStock" ? .provideOutput([.text(.init(content: "lantern: 12 gold"))]) : .run
/// }
/// ```
public struct ToolCallDecider: ToolExecutionDelegate {
    private let decide: @Sendable (Transcript.ToolCall) async -> ToolExecutionDecision

    /// Creates a delegate that asks `decide`.
    ///
    /// - Parameter decide: Decides what to do with a call.
    public init(_ decide: @escaping @Sendable (Transcript.ToolCall) async -> ToolExecutionDecision) {
        self.decide = decide
    }

    /// What `decide` says.
    ///
    /// - Parameters:
    ///   - toolCall: The call.
    ///   - session: The session (not passed to the closure).
    /// - Returns: The closure's decision.
    public func toolCallDecision(
        for toolCall: Transcript.ToolCall, in session: LanguageModelSession
    ) async
        -> ToolExecutionDecision
    {
        await decide(toolCall)
    }
}

extension LanguageModelSession {
    /// A typed turn stopped by the tool execution delegate (`ToolExecutionDecision.stop`): there is no value of the
    /// type to return. Not a failure: the turn's entries, up to its tool calls and their outputs, stay in the
    /// transcript.
    public struct ToolExecutionStopped: Swift.Error, Sendable, CustomStringConvertible {
        /// The entries the turn added: its prompt, tool calls and their outputs.
        public var transcriptEntries: ArraySlice<Transcript.Entry>

        /// Creates the error.
        ///
        /// - Parameter transcriptEntries: The entries the turn added.
        public init(transcriptEntries: ArraySlice<Transcript.Entry>) {
            self.transcriptEntries = transcriptEntries
        }

        /// What happened and what to do.
        public var description: String {
            "The tool execution delegate stopped the turn after the model's tool calls, so there is no generated "
                + "value; the turn's entries are in the transcript. Read them from transcriptEntries, or return "
                + ".run or .deny for calls that should not end the turn."
        }
    }

    /// Text the model gets as the output of a call the app denied.
    static func deniedOutput(_ call: Transcript.ToolCall, reason: String) -> String {
        "The app did not allow this call of \(call.toolName), so it did not run"
            + (reason.isEmpty ? "." : ": \(reason)")
    }

    /// Text the model gets as the output of a call that did not run because the app stopped the turn.
    static func stoppedOutput(_ call: Transcript.ToolCall) -> String {
        "The app stopped the turn before this call of \(call.toolName) ran; it did not run."
    }
}
