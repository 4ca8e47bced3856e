// save-stress: the writer that the crash-safety test (Tests/SaveGamesTests/KillTests.swift) kills with SIGKILL.
//
//   save-stress run <folder> <slot> [turns]
//       Continues the game saved in the slot (or starts one), then plays `turns` more turns (default: a million).
//       Each turn appends one NPC's prompt, tool calls, tool outputs, reasoning and response, moves that NPC, and
//       autosaves (every tenth turn is a full save instead). Each turn's save also adds the turn's recording, and
//       every third turn's a feedback report, in the same transaction as its entries, as a game does. The turn's
//       number is printed and flushed only after its save committed, so every number printed is a turn the save
//       must hold.
//   save-stress verify <folder> <slot>
//       Checks a save the writer left (killed or not) against what its turns must have written: SQLite's
//       integrity_check, the label and play time of the last turn, no missing content, each NPC's location, every
//       transcript entry byte for byte (as stored and as loaded), the turn annotations, and each turn's recording and
//       report (present exactly for the turns whose entries are). Prints `turns N` and exits 0 when the save is
//       sound; prints one `problem: ...` line per problem and exits 1 otherwise.
//
// Everything is a function of the turn number, so the test can check the save byte for byte.
import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite
import SaveGames
import SyntheticWorlds

/// The game the writer plays: a small synthetic world and three NPCs taking turns.
enum StressGame {
    /// The world; the test generates the same one.
    static let pack = SyntheticWorld.generate(seed: 2024, locations: 2, npcs: 3, items: 4)
    /// The NPCs, in the order they take turns.
    static let npcs: [NPCID] = ["npc_0", "npc_1", "npc_2"]

    /// The NPC the player talks to in turn `turn` (turns start at 1).
    static func npc(turn: Int) -> NPCID { npcs[turn % npcs.count] }

    /// The entries turn `turn` appends to its NPC's transcript: instructions first, on the NPC's first turn.
    static func entries(turn: Int) -> [Transcript.Entry] {
        let npc = npc(turn: turn).rawValue
        let stock = JSONValue.string(NPCTool.lookUpStock.rawValue)
        let offer = JSONValue.string(NPCTool.offerTrade.rawValue)
        var objects: [JSONValue] = []
        if turn <= npcs.count {
            objects.append([
                "id": .string("instructions-\(npc)"), "role": "instructions",
                "contents": [["type": "text", "id": .string("instructions-\(npc)-text"), "text": "You are a trader."]],
                "tools": [
                    [
                        "type": "function",
                        "function": [
                            "name": stock, "description": "Looks up an item in the stock.",
                            "parameters": [
                                "type": "object", "title": "Arguments", "required": ["item"],
                                "properties": ["item": ["type": "string"]],
                            ],
                        ],
                    ]
                ],
            ])
        }
        var prompt: JSONValue = [
            "id": .string("prompt-\(turn)"), "role": "user",
            "contents": [
                ["type": "text", "id": .string("prompt-\(turn)-text"), "text": .string("Turn \(turn): deal?")]
            ],
            "options": turn % 2 == 0 ? ["temperature": 0.5, "sampling": ["mode": "greedy"]] : [:],
        ]
        if turn % 3 == 0, case .object(var object) = prompt {
            object["responseFormat"] = [
                "type": "jsonSchema",
                "jsonSchema": [
                    "name": "Deal",
                    "schema": [
                        "type": "object", "title": "Deal", "required": ["price"],
                        "properties": ["price": ["type": "integer"]],
                    ],
                ],
            ]
            prompt = .object(object)
        }
        objects.append(prompt)
        objects.append([
            "id": .string("calls-\(turn)"), "role": "response",
            "toolCalls": [
                ["id": .string("call-\(turn)-a"), "name": stock, "arguments": #"{"item": "item_1"}"#],
                [
                    "id": .string("call-\(turn)-b"), "name": offer,
                    "arguments": .string(#"{"gold": \#(turn), "note": "turn \#(turn) \#u{2014} \"quoted\""}"#),
                ],
            ],
        ])
        objects.append([
            "id": .string("call-\(turn)-a"), "role": "tool", "toolName": stock,
            "toolCallID": .string("call-\(turn)-a"),
            "contents": [
                ["type": "text", "id": .string("out-\(turn)-a"), "text": .string("item_1: \(turn) in stock")]
            ],
        ])
        objects.append([
            "id": .string("call-\(turn)-b"), "role": "tool", "toolName": offer,
            "toolCallID": .string("call-\(turn)-b"),
            "contents": [
                [
                    "type": "structure", "id": .string("out-\(turn)-b"),
                    "structure": [
                        "source": offer,
                        "content": ["accepted": .bool(turn % 2 == 0), "price": .integer(turn), "ratio": 1.25],
                    ],
                ]
            ],
        ])
        objects.append([
            "id": .string("reasoning-\(turn)"), "role": "reasoning",
            "contents": [["type": "text", "id": .string("reasoning-\(turn)-text"), "text": "The price is fair."]],
            "metadata": ["tokens": .integer(turn * 7)],
            "signature": .string(Data("signature \(turn)".utf8).base64EncodedString()),
        ])
        objects.append([
            "id": .string("response-\(turn)"), "role": "response", "assets": [],
            "contents": [
                ["type": "text", "id": .string("response-\(turn)-text"), "text": .string("Deal, for \(turn) gold.")],
                [
                    "type": "structure", "id": .string("response-\(turn)-deal"),
                    "structure": ["source": "Deal", "content": ["price": .integer(turn)]],
                ],
            ],
        ])
        return objects.map { try! Transcript.Entry(jsonValue: $0) }
    }

    /// The annotations of turn `turn`'s prompt: `turn` (save-stress's own key, which `verify` checks) and the NPC.
    static func turnAnnotations(turn: Int) -> [String: String] {
        var annotations = [String: String](annotations: [.npc: npc(turn: turn).rawValue])
        annotations["turn"] = String(turn)
        return annotations
    }

    /// The annotations of an NPC's conversation.
    static func annotations(npc: NPCID) -> [String: String] {
        [String: String](annotations: [.npc: npc.rawValue, .modelID: "save-stress", .modelVersion: "1"])
    }

    /// Turn `turn`'s recording: its own members, and instructions that every turn of its NPC shares (stored once in
    /// the save's `recording_parts`, so the kill test covers them too).
    static func recording(turn: Int) -> SavedAttachment {
        let npc = npc(turn: turn)
        let json: JSONValue = [
            "id": .string("recording-\(turn)"), "turn": .integer(turn), "npc": .string(npc.rawValue),
            "instructions": ["text": .string("You are \(npc.rawValue), a trader.")],
            "stateBefore": ["turn": .integer(turn - 1)],
        ]
        return SavedAttachment(
            id: "recording-\(turn)", npc: npc, createdAt: Date(timeIntervalSince1970: Double(turn)),
            json: json.jsonString())
    }

    /// Turn `turn`'s feedback report, on every third turn.
    static func feedback(turn: Int) -> SavedAttachment? {
        guard turn % 3 == 0 else { return nil }
        let npc = npc(turn: turn)
        let json: JSONValue = ["id": .string("feedback-\(turn)"), "turn": .integer(turn), "sentiment": "negative"]
        return SavedAttachment(
            id: "feedback-\(turn)", npc: npc, createdAt: Date(timeIntervalSince1970: Double(turn)),
            json: json.jsonString())
    }

    /// The event of turn `turn`: its NPC walks to the other location.
    static func event(turn: Int, in state: GameState) -> GameEvent {
        let npc = npc(turn: turn)
        let from = state.world.npcs[npc]!.location
        let to: LocationID = from == "loc_0" ? "loc_1" : "loc_0"
        return .npcMoved(npc: npc, from: from, to: to)
    }
}

/// Writes a line to standard output and flushes it at once.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes a message to standard error and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("save-stress: \(message)\n".utf8))
    exit(2)
}

func run(folder: URL, slot: String, turns: Int) throws {
    let store = SaveGameStore(folder: folder)
    let save = try store.open(slot: slot)
    var state = StressGame.pack.initialState
    var conversations: [NPCID: AnnotatedTranscript] = [:]
    var turn = 0
    if try save.hasGame() {
        let loaded = try save.load(pack: StressGame.pack)
        state = loaded.state
        turn = Int(loaded.metadata.label.dropFirst("turn ".count)) ?? 0
        for npc in loaded.conversations {
            conversations[npc] = try save.transcript(npc: npc)
        }
    } else {
        try save.writeFull(SaveSnapshot(state: state, playTime: .zero, label: "turn 0"))
    }
    for _ in 0..<turns {
        turn += 1
        let npc = StressGame.npc(turn: turn)
        let event = StressGame.event(turn: turn, in: state)
        try state.apply(event)
        var conversation =
            conversations[npc]
            ?? AnnotatedTranscript(transcript: Transcript(), annotations: StressGame.annotations(npc: npc))
        conversation.transcript.append(contentsOf: StressGame.entries(turn: turn))
        conversation.turnAnnotations["prompt-\(turn)"] = StressGame.turnAnnotations(turn: turn)
        conversations[npc] = conversation
        let playTime = Duration.seconds(turn)
        let recordings = [StressGame.recording(turn: turn)]
        let feedback = StressGame.feedback(turn: turn).map { [$0] } ?? []
        if turn % 10 == 0 {
            var snapshot = SaveSnapshot(
                state: state, conversations: conversations, playTime: playTime, label: "turn \(turn)")
            snapshot.recordings = recordings
            snapshot.feedback = feedback
            try save.writeFull(snapshot)
        } else {
            var delta = SaveDelta(
                state: state, events: [event], conversations: [npc: conversation], playTime: playTime,
                label: "turn \(turn)")
            delta.recordings = recordings
            delta.feedback = feedback
            try save.autosave(delta)
        }
        say(String(turn))
    }
}

/// Checks the save in `slot` against what its turns must have written; returns the number of turns it holds and
/// the problems found.
func verify(folder: URL, slot: String) throws -> (turns: Int, problems: [String]) {
    let save = try SaveGameStore(folder: folder).open(slot: slot)
    var problems = try save.integrityCheck().map { "integrity_check: \($0)" }
    guard problems.isEmpty else { return (0, problems) }
    guard try save.hasGame() else { return (0, []) }
    let loaded = try save.load(pack: StressGame.pack)
    guard let turns = Int(loaded.metadata.label.dropFirst("turn ".count)) else {
        return (0, ["the label is \"\(loaded.metadata.label)\", not \"turn N\""])
    }
    if loaded.metadata.playTime != .seconds(turns) { problems.append("play time \(loaded.metadata.playTime)") }
    if !loaded.missing.isEmpty { problems.append("missing content: \(loaded.missing)") }

    // Each NPC moved once per turn of theirs, between loc_0 and loc_1.
    for (index, npc) in StressGame.npcs.enumerated() {
        let count = StressGame.npcs.count
        let moves = (turns + (count - index) % count) / count
        let start = StressGame.pack.world.npcs[npc]!.location
        let other: LocationID = start == "loc_0" ? "loc_1" : "loc_0"
        if loaded.state.world.npcs[npc]?.location != (moves % 2 == 0 ? start : other) {
            problems.append("\(npc) is not where \(turns) turns leave it")
        }
    }

    // Every entry, byte for byte: as the file stores it, and as the loaded transcript encodes it.
    var expected: [NPCID: [String]] = [:]
    for turn in stride(from: 1, through: turns, by: 1) {
        expected[StressGame.npc(turn: turn), default: []] += StressGame.entries(turn: turn).map { $0.jsonString() }
    }
    let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
    for npc in StressGame.npcs {
        let wanted = expected[npc] ?? []
        let transcript = try save.transcript(npc: npc)
        if let difference = firstDifference(transcript?.transcript.map { $0.jsonString() } ?? [], wanted) {
            problems.append("the loaded transcript of \(npc): \(difference)")
        }
        let stored: [String] = try db.query(
            "SELECT json FROM transcript_entries WHERE npc = ? ORDER BY position", [npc.rawValue]
        ).map { try $0.get(0) }
        if let difference = firstDifference(stored, wanted) {
            problems.append("the stored entries of \(npc): \(difference)")
        }
        for (prompt, annotations) in transcript?.turnAnnotations ?? [:]
        where annotations["turn"].map({ "prompt-\($0)" }) != prompt {
            problems.append("the annotations of \(prompt) are \(annotations)")
        }
    }

    // A turn's recording and report are saved exactly when its entries are: both or neither (one transaction).
    let turnRange = stride(from: 1, through: turns, by: 1)
    let wantedRecordings = Set(turnRange.map { StressGame.recording(turn: $0) })
    let wantedReports = Set(turnRange.compactMap { StressGame.feedback(turn: $0) })
    let recordings = Set(try save.recordings())
    let reports = Set(try save.feedback())
    for extra in recordings.subtracting(wantedRecordings) { problems.append("recording \(extra.id) should not be: \(extra.json)") }
    for absent in wantedRecordings.subtracting(recordings) { problems.append("recording \(absent.id) is missing or differs") }
    for extra in reports.subtracting(wantedReports) { problems.append("report \(extra.id) should not be: \(extra.json)") }
    for absent in wantedReports.subtracting(reports) { problems.append("report \(absent.id) is missing or differs") }
    return (turns, problems)
}

/// Where two lists of entries first differ, in a few words; `nil` when they are equal.
func firstDifference(_ actual: [String], _ expected: [String]) -> String? {
    if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
        return "entry \(index) is \(actual[index]), expected \(expected[index])"
    }
    return actual.count == expected.count ? nil : "\(actual.count) entries, expected \(expected.count)"
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "run":
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2 || rest.count == 3 else { fail("usage: save-stress run <folder> <slot> [turns]") }
    let turns = rest.count == 3 ? Int(rest[2]) ?? 0 : 1_000_000
    do {
        try run(folder: URL(fileURLWithPath: rest[0]), slot: rest[1], turns: turns)
    } catch {
        fail("\(error)")
    }
case "verify":
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2 else { fail("usage: save-stress verify <folder> <slot>") }
    do {
        let (turns, problems) = try verify(folder: URL(fileURLWithPath: rest[0]), slot: rest[1])
        guard problems.isEmpty else {
            for problem in problems { say("problem: \(problem)") }
            exit(1)
        }
        say("turns \(turns)")
    } catch {
        fail("\(error)")
    }
default:
    fail("usage: save-stress run <folder> <slot> [turns] | save-stress verify <folder> <slot>")
}
