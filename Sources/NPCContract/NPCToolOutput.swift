import GameWorld
import LanguageModels

/// What an NPC tool answered, typed by the tool: read from or written into a transcript's `toolOutput` entry.
public enum NPCToolOutput: Sendable, Hashable {
    /// `lookUpStock`'s answer.
    case stock(StockReport)
    /// `inspectPlayer`'s answer.
    case player(PlayerReport)
    /// The answer of `offerTrade`, `giveItem` or `acceptGift`.
    case action(ActionResult)

    /// The output as the JSON the model reads.
    public var generatedContent: GeneratedContent {
        switch self {
        case .stock(let report): report.generatedContent
        case .player(let report): report.generatedContent
        case .action(let result): result.generatedContent
        }
    }

    /// Reads a tool's output.
    ///
    /// - Parameters:
    ///   - tool: The tool that answered.
    ///   - content: Its output.
    /// - Throws: `GeneratedContent.ParsingError` when the output does not fit the tool's.
    public init(tool: NPCTool, content: GeneratedContent) throws {
        switch tool {
        case .lookUpStock: self = .stock(try LookUpStock.Output(content))
        case .inspectPlayer: self = .player(try InspectPlayer.Output(content))
        case .offerTrade: self = .action(try OfferTrade.Output(content))
        case .giveItem: self = .action(try GiveItem.Output(content))
        case .acceptGift: self = .action(try AcceptGift.Output(content))
        }
    }

    /// Reads a transcript's tool output: its structured segment, or its text when the text is a complete JSON object.
    ///
    /// - Parameter output: The output.
    /// - Returns: `nil` when another tool than the NPC tools answered, or the output does not fit the tool's (for
    ///   example the session's plain-text answer to arguments it could not read).
    public init?(_ output: Transcript.ToolOutput) {
        guard let tool = NPCTool(rawValue: output.toolName), let content = Self.content(of: output),
            let read = try? NPCToolOutput(tool: tool, content: content)
        else { return nil }
        self = read
    }

    /// An output's structured content: its first structured segment, or its text parsed as a complete JSON object.
    private static func content(of output: Transcript.ToolOutput) -> GeneratedContent? {
        var texts: [String] = []
        for segment in output.segments {
            switch segment {
            case .structure(let structure): return structure.content
            case .text(let text): texts.append(text.content)
            case .unknown: continue
            }
        }
        guard let content = try? GeneratedContent(json: texts.joined(separator: "\n")), content.isComplete,
            case .structure = content.kind
        else { return nil }
        return content
    }
}
