import LanguageModels
import ParleyBasics
import ParleyHTTP
import ParleyJSON

/// Turns the chunks of a streamed chat completion into `GenerationUpdate`s.
///
/// Text and reasoning pass through as deltas. Tool calls arrive as deltas keyed by `index` (the id and name
/// once, the arguments as JSON fragments); they are joined per index and parsed only when the stream ends. In
/// constrained tool-calling mode the content is the model's JSON: the reply's text is streamed as it grows, and
/// the whole JSON is parsed at the end.
///
/// What the model says has the API key removed (should the server echo it), also when the key is split across
/// chunks: text that could be the start of the key is held back until the next chunk shows it is not. The text,
/// reasoning and tool-call arguments together may not pass `limits.contentBytes`.
///
/// With `replyRules`, the reply's text (not tool calls, not a structured answer) then goes through a
/// `ReplyShaper`: only text certain to be kept comes out, and once the reply is cut (`stopsReading`, unless told
/// to read on) the reader stops and `finish()` completes the generation with the kept text.
struct ChatStreamAccumulator {
    let constrained: ConstrainedToolCalling?
    let makeCallID: @Sendable () -> String
    let redactor: SecretRedactor
    let limits: ReplyLimits
    /// What is kept of a text reply; `nil` keeps all of it.
    let replyRules: ReplyShaper.Rules?
    /// Whether a cut reply ends the stream; off when native tool calls may still follow the text.
    let stopsWhenCut: Bool

    private var content = ""
    private var emittedReply = ""
    private var toolCalls: [Int: (id: String?, name: String, arguments: String)] = [:]
    private(set) var finished = false
    private var usage: GenerationUsage?
    private var contentBytes = 0
    private var text: StreamingRedactor
    private var reasoning: StreamingRedactor
    private var shaper: ReplyShaper?

    init(
        constrained: ConstrainedToolCalling?, makeCallID: @escaping @Sendable () -> String,
        redactor: SecretRedactor = SecretRedactor(),
        limits: ReplyLimits = ReplyLimits(maximumTokens: nil, hardCap: .max), replyRules: ReplyShaper.Rules? = nil,
        stopsWhenCut: Bool = true
    ) {
        self.constrained = constrained
        self.makeCallID = makeCallID
        self.redactor = redactor
        self.limits = limits
        self.replyRules = replyRules
        self.stopsWhenCut = stopsWhenCut
        text = StreamingRedactor(redactor)
        reasoning = StreamingRedactor(redactor)
        shaper = replyRules.map(ReplyShaper.init)
    }

    /// Whether the reply has been cut and nothing more is wanted from the stream.
    var stopsReading: Bool { stopsWhenCut && isCut }

    /// Whether the reply's text has been cut.
    private var isCut: Bool { shaper?.isCut ?? false }

    /// Reads one event's data and returns the updates to deliver now.
    ///
    /// - Throws: `ChatResponseParser.InvalidResponse` for data that is not a chunk, and the server's error when
    ///   the stream carries one; `ReplyLimits.Exceeded` when the reply passes its limit.
    mutating func consume(_ data: String) throws -> [GenerationUpdate] {
        if data == "[DONE]" {
            finished = true
            return []
        }
        guard let chunk = try? JSONValue(parsing: data) else {
            throw ChatResponseParser.InvalidResponse(message: "a streamed event is not JSON", body: data)
        }
        if let error = chunk["error"] {
            let message = redactor.redact(error["message"]?.stringValue ?? error.jsonString())
            throw ChatResponseParser.InvalidResponse(
                message: "the server reported an error mid-stream: \(message)", body: redactor.redact(data))
        }
        if let reported = ChatResponseParser.usage(from: chunk) { usage = reported }
        var updates: [GenerationUpdate] = []
        guard let choice = chunk["choices"]?[0] else { return updates }
        if let reason = choice["finish_reason"], !reason.isNull { finished = true }
        let delta = choice["delta"] ?? choice["message"] ?? [:]
        if let piece = delta["reasoning_content"]?.stringValue, !piece.isEmpty {
            try count(piece)
            let ready = reasoning.feed(piece)
            if !ready.isEmpty { updates.append(.reasoning(ready)) }
        }
        if let piece = delta["content"]?.stringValue, !piece.isEmpty {
            try count(piece)
            content += piece
            var newText = ""
            if constrained == nil {
                newText = piece
            } else if let reply = ConstrainedToolCalling.partialReply(content), reply.count > emittedReply.count,
                reply.hasPrefix(emittedReply)
            {
                newText = String(reply.dropFirst(emittedReply.count))
                emittedReply = reply
            }
            let ready = shape(text.feed(newText))
            if !ready.isEmpty { updates.append(.text(ready)) }
        }
        for call in delta["tool_calls"]?.arrayValue ?? [] {
            let index = call["index"]?.intValue ?? toolCalls.count
            var entry = toolCalls[index] ?? (id: nil, name: "", arguments: "")
            if let id = call["id"]?.stringValue, !id.isEmpty { entry.id = id }
            if let name = call["function"]?["name"]?.stringValue { entry.name += name }
            switch call["function"]?["arguments"] {
            case .string(let fragment)?:
                try count(fragment)
                entry.arguments += fragment
            case .object(let object)?:
                let fragment = JSONValue.object(object).jsonString()
                try count(fragment)
                entry.arguments += fragment
            default: break
            }
            toolCalls[index] = entry
        }
        return updates
    }

    /// The part of the reply's text that is certain to be kept.
    private mutating func shape(_ piece: String) -> String {
        guard shaper != nil else { return piece }
        return shaper?.feed(piece) ?? piece
    }

    /// Counts a piece of the reply against its limit.
    private mutating func count(_ piece: String) throws {
        contentBytes = contentBytes.saturatingAdding(piece.utf8.count)
        if contentBytes > limits.contentBytes { throw ReplyLimits.Exceeded(bytes: limits.contentBytes) }
    }

    /// The updates that complete the generation once the stream has ended: tool calls, the rest of a
    /// constrained reply or structured answer, and usage.
    ///
    /// - Throws: `GeneratedContent.ParsingError` when tool-call arguments or the constrained JSON do not parse.
    func finish() throws -> [GenerationUpdate] {
        var updates: [GenerationUpdate] = []
        var text = self.text
        var reasoning = self.reasoning
        var shaper = self.shaper
        let heldReasoning = reasoning.finish()
        if !heldReasoning.isEmpty { updates.append(.reasoning(heldReasoning)) }
        var rest = ""
        var structured = false
        if stopsReading {
            // Cut and no longer read: a reply (so far as it is kept), whatever was left unparsed.
        } else if !toolCalls.isEmpty {
            let calls = try toolCalls.keys.sorted().map { index in
                let call = toolCalls[index]!
                return Transcript.ToolCall(
                    id: call.id ?? makeCallID(), toolName: call.name,
                    arguments: try ChatResponseParser.parseArguments(
                        redactor.redactKnown(call.arguments), tool: call.name))
            }
            updates.append(.toolCalls(calls))
        } else if let constrained {
            switch try constrained.parse(content, makeCallID: makeCallID) {
            case .toolCalls:
                // Parsed again without the key, should the model have put it in the arguments.
                if case .toolCalls(let calls) = try constrained.parse(
                    redactor.redactKnown(content), makeCallID: makeCallID)
                {
                    updates.append(.toolCalls(calls))
                }
            case .text(let reply):
                if reply.hasPrefix(emittedReply), reply.count > emittedReply.count {
                    rest = String(reply.dropFirst(emittedReply.count))
                }
            case .structure(let content):
                rest = redactor.redactKnown(content.jsonString)
                structured = true
            }
        }
        var heldText = text.feed(rest) + text.finish()
        if !structured, shaper != nil { heldText = (shaper?.feed(heldText) ?? "") + (shaper?.finish() ?? "") }
        if !heldText.isEmpty { updates.insert(.text(heldText), at: heldReasoning.isEmpty ? 0 : 1) }
        if let usage { updates.append(.usage(usage)) }
        return updates
    }
}
