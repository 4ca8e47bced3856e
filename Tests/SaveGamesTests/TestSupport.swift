import Foundation
import GameWorld
import LanguageModels
import SaveGames

/// A fresh directory under the system's temporary directory, removed when the closure returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SaveGamesTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// The async form of ``withTemporaryDirectory(_:)``.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SaveGamesTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Where the package and its test fixtures are.
enum TestPaths {
    /// The package's root directory.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `Tests/SaveGamesTests/Fixtures`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The directory SwiftPM builds products into: the one holding the test bundle. On Linux the bundle is an
    /// executable in that directory; on macOS it is a `.xctest` bundle inside it.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }
}

/// A clock that always says the same time, so saves are the same on every run.
let fixedNow: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_750_000_000.250) }

/// A small world built in code: a square, a smithy and a cellar; Mira (with a beat), Brannoc and Oona; a few
/// items; the quest `key` (unstarted, asked, found, done).
enum SaveTestWorld {
    static let items: [Item] = [
        Item(id: "lantern", name: "Lantern", value: 20, category: "tool"),
        Item(id: "bread", name: "Bread", value: 2, category: "food"),
        Item(id: "apple", name: "Apple", value: 1, category: "food"),
        Item(id: "sword", name: "Sword", value: 40, category: "weapon"),
        Item(id: "old_key", name: "Old Key", value: 5, category: "tool", tags: [.quest]),
    ]

    static let npcs: [NPC] = [
        NPC(
            id: "mira", name: "Mira Quickcoin", persona: "A merchant.", location: "square",
            inventory: ["bread": 5, "lantern": 2], gold: 50,
            trade: TradePolicy(sells: ["food", "tool"], buys: ["food"]),
            beats: [Beat(id: "hello", trigger: .firstTalk, lines: ["Hello!"])]),
        NPC(
            id: "brannoc", name: "Brannoc", persona: "A blunt smith.", location: "smithy", inventory: ["sword": 1],
            gold: 30, trade: TradePolicy(sells: ["weapon"], buys: ["weapon"])),
        NPC(id: "oona", name: "Oona", persona: "A guard.", location: "smithy", gold: 10),
    ]

    static let locations: [Location] = [
        Location(
            id: "square", name: "Market Square", description: "A square.",
            exits: [
                Exit(direction: "east", destination: "smithy"), Exit(direction: "down", destination: "cellar"),
            ], items: ["apple": 3]),
        Location(
            id: "smithy", name: "Smithy", description: "A smithy.",
            exits: [Exit(direction: "west", destination: "square")]),
        Location(
            id: "cellar", name: "Cellar", description: "A cellar.",
            exits: [Exit(direction: "up", destination: "square")],
            items: ["old_key": 1]),
    ]

    static let quests = [Quest(id: "key", name: "The Old Key", stages: ["unstarted", "asked", "found", "done"])]

    static let goal = GameGoal(
        description: "Give the key to Mira.", requirements: [.npcHasItem(npc: "mira", item: "old_key", quantity: 1)])

    static let contentHash = ContentHash(value: 0x1234_5678_9abc_def0)

    /// The pack, optionally without some content, as after a mod update.
    static func pack(
        removingNPCs: Set<NPCID> = [], removingItems: Set<ItemID> = [], removingLocations: Set<LocationID> = [],
        removingQuests: Set<QuestID> = [], contentHash: ContentHash = contentHash
    ) -> ContentPack {
        let world = World(
            id: "save_test", title: "Save Test",
            locations: locations.filter { !removingLocations.contains($0.id) },
            items: items.filter { !removingItems.contains($0.id) }, npcs: npcs.filter { !removingNPCs.contains($0.id) },
            goal: goal, quests: quests.filter { !removingQuests.contains($0.id) }, contentHash: contentHash)
        return ContentPack(
            world: world, startingPlayer: Player(name: "Ada", location: "square", gold: 40, inventory: ["bread": 1]))
    }
}

/// Transcripts holding every kind of entry, in Apple's JSON.
enum SampleTranscripts {
    /// One entry of each kind, with text and structured segments, tool definitions, options, a response format,
    /// reasoning metadata and a signature. `prefix` makes the ids unique.
    static func entries(_ prefix: String) -> [Transcript.Entry] {
        let json = """
            {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [
              {"id": "\(prefix)-i", "role": "instructions",
               "contents": [{"type": "text", "id": "\(prefix)-i1", "text": "You are Mira, a merchant. Café ☕ \\"quoted\\"\\n"}],
               "tools": [{"type": "function", "function": {"name": "offerTrade", "description": "Offers a trade.",
                 "parameters": {"type": "object", "title": "Offer", "required": ["item", "gold"], "x-order": ["item", "gold"],
                   "properties": {"item": {"type": "string"}, "gold": {"type": "integer", "minimum": 0}}}}}]},
              {"id": "\(prefix)-p", "role": "user", "contents": [{"type": "text", "id": "\(prefix)-p1", "text": "A lantern?"}],
               "options": {"sampling": {"mode": "topK", "k": 40, "seed": 18446744073709551615}, "temperature": 0.7,
                 "maximumResponseTokens": 256},
               "responseFormat": {"type": "jsonSchema", "jsonSchema": {"name": "Deal", "schema": {"type": "object",
                 "title": "Deal", "properties": {"price": {"type": "integer"}}, "required": ["price"]}}}},
              {"id": "\(prefix)-c", "role": "response", "toolCalls": [
                {"id": "\(prefix)-call1", "name": "offerTrade", "arguments": "{\\"item\\": \\"lantern\\", \\"gold\\": 20}"},
                {"id": "\(prefix)-call2", "name": "lookUpStock", "arguments": "{}"}]},
              {"id": "\(prefix)-call1", "role": "tool", "toolName": "offerTrade", "toolCallID": "\(prefix)-call1",
               "contents": [{"type": "structure", "id": "\(prefix)-o1", "structure": {"source": "offerTrade",
                 "content": {"accepted": false, "reasons": ["too cheap", "lantern is 24"], "ratio": 1.2e0, "big": 12345678901234567890}}}]},
              {"id": "\(prefix)-call2", "role": "tool", "toolName": "lookUpStock", "toolCallID": "\(prefix)-call2",
               "contents": [{"type": "text", "id": "\(prefix)-o2", "text": "lantern: 2 in stock"}]},
              {"id": "\(prefix)-r", "role": "reasoning", "contents": [{"type": "text", "id": "\(prefix)-r1", "text": "Too low."}],
               "metadata": {"tokens": 12, "model": "x"}, "signature": "c2lnbmF0dXJl"},
              {"id": "\(prefix)-a", "role": "response", "assets": ["asset-1"],
               "contents": [{"type": "text", "id": "\(prefix)-a1", "text": "Twenty-four, friend."},
                 {"type": "structure", "id": "\(prefix)-a2", "structure": {"source": "Deal", "content": {"price": 24, "note": null}}}]}
            ]}}
            """
        return Array(try! Transcript(json: json))
    }

    /// An annotated conversation of `turns` turns (the first with instructions), ids prefixed with `npc`.
    static func conversation(_ npc: String, turns: Int = 1) -> AnnotatedTranscript {
        var transcript = Transcript()
        var turnAnnotations: [String: [String: String]] = [:]
        for turn in 0..<turns {
            var entries = entries("\(npc)-\(turn)")
            if turn > 0 { entries.removeFirst() }
            transcript.append(contentsOf: entries)
            turnAnnotations["\(npc)-\(turn)-p"] = ["player": "Ada", "gold": String(40 - turn), "location": "square"]
        }
        return AnnotatedTranscript(
            transcript: transcript,
            annotations: ["npc": npc, "model.id": "scripted", "model.version": "1", "parley.version": "0.1.0"],
            turnAnnotations: turnAnnotations)
    }

    /// `conversation` with one more turn appended.
    static func continuing(_ conversation: AnnotatedTranscript, npc: String, turn: Int) -> AnnotatedTranscript {
        var next = conversation
        next.transcript.append(contentsOf: entries("\(npc)-\(turn)").dropFirst())
        next.turnAnnotations["\(npc)-\(turn)-p"] = ["player": "Ada", "gold": "1", "location": "smithy"]
        return next
    }
}
