// save-stress: the writer that the crash-safety test (Tests/SaveGamesTests/KillTests.swift) kills with SIGKILL.
//
//   save-stress run <folder> <slot> [turns]
//       Continues the game saved in the slot (or starts one), then plays `turns` more turns (default: a million).
//       Each turn appends one NPC's prompt, tool calls, tool outputs, reasoning and response, moves that NPC, and
//       autosaves (every tenth turn is a full save instead). The turn's number is printed and flushed only after
//       its save committed, so every number printed is a turn the save must hold.
//   save-stress expect <turns>
//       Prints what the save must hold after `turns` turns: one line per transcript entry, `<npc>\t<entry JSON>`,
//       in order.
//
// Everything is a function of the turn number, so the test can check the save byte for byte.
import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import SaveGames

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

    /// The annotations of turn `turn`'s prompt.
    static func turnAnnotations(turn: Int) -> [String: String] {
        ["turn": String(turn), "npc": npc(turn: turn).rawValue]
    }

    /// The annotations of an NPC's conversation.
    static func annotations(npc: NPCID) -> [String: String] {
        ["npc": npc.rawValue, "model.id": "save-stress", "model.version": "1"]
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
        if turn % 10 == 0 {
            try save.writeFull(
                SaveSnapshot(state: state, conversations: conversations, playTime: playTime, label: "turn \(turn)"))
        } else {
            try save.autosave(
                SaveDelta(
                    state: state, events: [event], conversations: [npc: conversation], playTime: playTime,
                    label: "turn \(turn)"))
        }
        say(String(turn))
    }
}

func expect(turns: Int) {
    guard turns > 0 else { return }
    for turn in 1...turns {
        let npc = StressGame.npc(turn: turn)
        for entry in StressGame.entries(turn: turn) {
            say("\(npc)\t\(entry.jsonString())")
        }
    }
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
case "expect":
    guard arguments.count == 2, let turns = Int(arguments.dropFirst().first!) else {
        fail("usage: save-stress expect <turns>")
    }
    expect(turns: turns)
default:
    fail("usage: save-stress run <folder> <slot> [turns] | save-stress expect <turns>")
}
