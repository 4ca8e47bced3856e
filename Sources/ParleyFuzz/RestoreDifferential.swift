import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import SaveGames
import Synchronization

/// The differential test of restoring: an NPC restored from a save is the same NPC.
///
/// It plays seeded random conversations on a ``ParleyHost/GameHost`` that autosaves after every line, as
/// `parley play` does: lines drawn from an evaluation corpus, trade requests, accepts and declines, gifts, names
/// given and asked for, questions about the past, moves, and a small context window that forces trims. At every turn
/// boundary it restores the autosave into a new ``ParleyEngine/Game`` (with new models, so nothing a model keeps in
/// memory carries over), gives the next line to both, and requires the same answer: what the game showed, the turn's
/// entries (the reply, the tool calls and their outputs), the NPCs' working transcripts and histories, the pending
/// offers, the partner and the whole dynamic state. Anything the engine or a model keeps outside the transcript and
/// the saved state makes the two differ, and is a finding.
///
/// ```swift
/// let summary = try await RestoreDifferential.run(
///     pack: pack, lines: corpusLines, conversations: 12, turns: 40, seed: 1, contextSizes: [1_500, 32_768]
/// ) { npc, world, contextSize in ScriptedModel(npc: npc, world: world, seed: 1, contextSize: contextSize) }
/// summary.accepted   // boundaries compared
/// ```
public enum RestoreDifferential {
    /// Makes the model of an NPC for a conversation whose model has `contextSize` tokens of context.
    public typealias ModelMaker = @Sendable (_ npc: NPC, _ world: World, _ contextSize: Int) -> any LanguageModel

    /// What a run compared, and what its games did: proof that it tried what matters.
    public struct Report: Sendable, CustomStringConvertible {
        /// The boundaries compared (`accepted`) and the differences found.
        public var summary: FuzzSummary
        /// The NPCs the games talked to.
        public var npcs: Set<NPCID> = []
        /// The context trims the live games made.
        public var trims = 0
        /// The trades and gifts the live games made.
        public var dealings = 0
        /// The games in which the player gave a name that an NPC remembers.
        public var namesGiven = 0

        /// One line, then one per difference: `restore differential (brackenford): 30 games, 1800 turn boundaries
        /// compared, 0 differences (seed 31, 42.0 s); 6 NPCs talked to, 110 trims, 108 trades and gifts, 23 games
        /// with a name given`.
        public var description: String {
            let seconds = Double(summary.duration.components.seconds)
                + Double(summary.duration.components.attoseconds) / 1e18
            var text =
                "\(summary.target): \(summary.iterations) games, \(summary.accepted) turn boundaries compared, "
                + "\(summary.findingCount) difference\(summary.findingCount == 1 ? "" : "s") (seed \(summary.seed), "
                + "\((seconds * 10).rounded() / 10) s); \(npcs.count) NPCs talked to, \(trims) trims, \(dealings) trades "
                + "and gifts, \(namesGiven) games with a name given"
            for finding in summary.findings { text += "\n  " + finding.description }
            return text
        }
    }

    /// Plays `conversations` seeded games of `turns` lines each, comparing the live game with a restored one at every
    /// boundary.
    ///
    /// Each conversation starts beside one of the pack's NPCs in turn (so every NPC is played), with gold to trade,
    /// and takes its model's context size from `contextSizes` in turn too (so the small windows are always played, and
    /// trims happen whatever lines the seed draws).
    ///
    /// - Parameters:
    ///   - pack: The content pack.
    ///   - lines: What players say (an evaluation corpus's lines), drawn at random.
    ///   - conversations: How many games to play.
    ///   - turns: The lines of each game.
    ///   - seed: The seed; the same seed, pack and lines give the same games.
    ///   - contextSizes: The context windows the games take in turn; small ones force trims.
    ///   - models: Makes each NPC's model.
    /// - Returns: The boundaries compared (`summary.accepted`), a finding for each one where the games differed (only
    ///   the first of each game: after it, the two games no longer start from the same point), and what the games did.
    /// - Throws: When a temporary folder cannot be made (not a finding: the run could not start).
    public static func run(
        pack: ContentPack, lines: [String], conversations: Int, turns: Int, seed: UInt64, contextSizes: [Int],
        models: @escaping ModelMaker
    ) async throws -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "restore differential (\(pack.world.id))", seed: seed)
        var report = Report(summary: summary)
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("parley-restore-\(UUID().uuidString)")
        try manager.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: root) }
        var random = SplitMix64(seed: seed)
        let npcs = pack.world.npcs.keys.sorted()
        guard !npcs.isEmpty, !contextSizes.isEmpty else { return report }

        for game in 0..<conversations {
            summary.iterations += 1
            let folder = root.appendingPathComponent("game-\(game)")
            let store = SaveGameStore(folder: folder)
            let contextSize = contextSizes[game % contextSizes.count]
            let provider: Game.ModelProvider = { npc, world in models(npc, world, contextSize) }
            let first = npcs[game % npcs.count]
            var state = pack.initialState
            if let npc = state.world.npcs[first] {
                state = state.withPlayer(location: npc.location, gold: 60 + random.next(below: 140))
            }
            let live = GameHost(pack: pack, state: state, models: provider, store: store)
            await live.begin(continuing: false) { _ in }
            var played: [String] = []
            for turn in 0..<turns {
                var line = await nextLine(live: live.game, lines: lines, random: &random)
                // Saving and loading need the host's save folder, which the restored game has not: not compared.
                while await needsTheHost(line, in: live.game) {
                    line = await nextLine(live: live.game, lines: lines, random: &random)
                }
                played.append(line)
                do {
                    let restored = try await restore(
                        store: store, slot: live.activeAutosaveSlot, pack: pack, models: provider)
                    let liveScreen = Screen()
                    let restoredScreen = Screen()
                    // The restored game first: it reads conversations from the save at first contact, and the live
                    // game's autosave after this line would change what it reads.
                    await restored.perform(line, output: restoredScreen.record)
                    await live.perform(line, output: liveScreen.record)
                    if let difference = await difference(
                        live: live.game, liveScreen: liveScreen, restored: restored, restoredScreen: restoredScreen)
                    {
                        summary.record(
                            .init(
                                iteration: game,
                                problem: "turn \(turn) (\"\(line)\"), context \(contextSize): \(difference)",
                                excerpt: played.suffix(12).joined(separator: " | ")))
                        break
                    }
                    summary.accepted += 1
                    // Many games share the machine's threads: let theirs run between this game's turns.
                    await Task.yield()
                } catch {
                    summary.record(
                        .init(
                            iteration: game, problem: "turn \(turn) (\"\(line)\"): the save did not restore: \(error)",
                            excerpt: played.suffix(12).joined(separator: " | ")))
                    break
                }
            }
            let game = await live.game
            for npc in await game.conversationNPCs {
                report.npcs.insert(npc)
                report.trims += await game.trims(of: npc)
            }
            report.dealings += await game.state.story.dealings.values.reduce(0) { $0 + $1.count }
            if await game.anyPlayerCalled { report.namesGiven += 1 }
            await live.close()
            try? manager.removeItem(at: folder)
        }
        summary.duration = clock.now - start
        report.summary = summary
        return report
    }

    // MARK: - Restoring

    /// A new game from the slot's save, as `parley play --continue` makes it, with models of its own.
    static func restore(
        store: SaveGameStore, slot: String, pack: ContentPack, models: @escaping Game.ModelProvider
    ) async throws -> Game {
        let file = try store.open(slot: slot, access: .readOnly)
        let loaded = try file.load(pack: pack)
        return Game(continuing: loaded, from: file, models: models)
    }

    // MARK: - Comparing

    /// The first way the restored game differs from the live one after the same line, or `nil`.
    static func difference(live: Game, liveScreen: Screen, restored: Game, restoredScreen: Screen) async -> String? {
        // A report's id is drawn at random: the rest of what was shown must be the same.
        let shownLive = liveScreen.lines.map(withoutIDs)
        let shownRestored = restoredScreen.lines.map(withoutIDs)
        let liveTurn = await live.lastTurn.map { $0.entries.map(fingerprint) } ?? []
        let restoredTurn = await restored.lastTurn.map { $0.entries.map(fingerprint) } ?? []
        if shownLive != shownRestored {
            return "showed\n    live:     \(shownLive)\n    restored: \(shownRestored)\n"
                + "    live turn:     \(liveTurn)\n    restored turn: \(restoredTurn)"
        }
        if await live.partner != restored.partner {
            return
                "talks to \(String(describing: await live.partner)) live, \(String(describing: await restored.partner)) restored"
        }
        let liveState = DynamicState(await live.state)
        let restoredState = DynamicState(await restored.state)
        if liveState != restoredState {
            return "state\n    live:     \(liveState.jsonValue)\n    restored: \(restoredState.jsonValue)"
        }
        if await live.pendingOffers != restored.pendingOffers {
            return "pending offers: live \(await live.pendingOffers), restored \(await restored.pendingOffers)"
        }
        // The restored game's last turn is this line's, if it spoke; the live game's may be an older one.
        if !restoredTurn.isEmpty, liveTurn != restoredTurn {
            return "turn entries\n    live:     \(liveTurn)\n    restored: \(restoredTurn)"
        }
        for npc in await restored.conversationNPCs {
            let liveWorking = await live.session(of: npc)?.transcript.map(fingerprint) ?? []
            let restoredWorking = await restored.session(of: npc)?.transcript.map(fingerprint) ?? []
            if liveWorking != restoredWorking {
                return "\(npc)'s working transcript\n" + firstDifference(liveWorking, restoredWorking)
            }
            let liveHistory = await live.history(of: npc).map(fingerprint)
            let restoredHistory = await restored.history(of: npc).map(fingerprint)
            if liveHistory != restoredHistory {
                return "\(npc)'s history\n" + firstDifference(liveHistory, restoredHistory)
            }
        }
        return nil
    }

    /// A line with every UUID (a report's id) replaced by `<id>`.
    static func withoutIDs(_ line: String) -> String {
        line.replacingOccurrences(
            of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "<id>",
            options: .regularExpression)
    }

    /// Where two lists of entries first differ, in words.
    static func firstDifference(_ live: [String], _ restored: [String]) -> String {
        let index =
            zip(live, restored).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(live.count, restored.count)
        let shown = { (entries: [String]) in index < entries.count ? entries[index] : "(none)" }
        return "    entries: \(live.count) live, \(restored.count) restored; first difference at \(index)\n"
            + "    live:     \(shown(live))\n    restored: \(shown(restored))"
    }

    /// An entry as the model reads it, without the ids a new turn draws at random: its text, its tool calls with
    /// their ids (which the scripted model derives from the transcript), and a response's asset ids.
    static func fingerprint(_ entry: Transcript.Entry) -> String {
        switch entry {
        case .toolCalls(let calls): "calls " + calls.map { "\($0.id) \($0)" }.joined(separator: ", ")
        case .response(let response): "\(response) [\(response.assetIDs.joined(separator: ", "))]"
        case .instructions(let instructions):
            "\(instructions) tools: \(instructions.toolDefinitions.map(\.name).joined(separator: ", "))"
        default: entry.description
        }
    }

    // MARK: - Lines

    /// Whether a line is a command only a host can run (`save`, `load`, `saves`, `reload`).
    static func needsTheHost(_ line: String, in game: Game) async -> Bool {
        switch await game.command(for: line) {
        case .save, .load, .saves, .reload: true
        default: false
        }
    }

    /// The player's next line: talk to someone here when talking to no one; else mostly words (from the corpus, or a
    /// trade, a name, a question about the past), sometimes a command (accept, decline, give, go, take, bye).
    static func nextLine(live: Game, lines: [String], random: inout SplitMix64) async -> String {
        let state = await live.state
        let partner = await live.partner
        let pending = await live.pendingOffers
        let here = state.npcsHere
        let world = state.world
        let exits = state.currentLocation?.exits.map(\.direction) ?? []
        let carried = state.player.inventory.map(\.item)
        func name(_ item: ItemID) -> String { world.items[item]?.name.lowercased() ?? item.rawValue }
        // The game's commands in the pack's language ("talk to", German "rede mit").
        func command(_ table: Lexicon.CommandTable, _ english: String) -> String {
            world.lexicon.commands(table).first ?? english
        }
        let (talk, go, accept, decline) = (
            command(.talk, "talk to"), command(.go, "go"), command(.accept, "accept"), command(.decline, "decline")
        )

        guard let partner, let npc = world.npcs[partner] else {
            if let npc = here.first, random.next(below: 10) < 8 {
                return
                    "\(talk) \(random.pick(here.map(\.name)).split(separator: " ").first.map(String.init) ?? npc.name)"
            }
            if let exit = exits.isEmpty ? nil : random.pick(exits), random.next(below: 2) == 0 { return "\(go) \(exit)" }
            return random.pick(["look", "inventory", "offers"])
        }
        let stock = npc.inventory.map(\.item)
        let roll = random.next(below: 100)
        switch roll {
        case 0..<45 where !lines.isEmpty:
            return random.pick(lines)
        case 45..<58 where !stock.isEmpty:
            let item = name(random.pick(stock))
            return random.pick([
                "I'll buy the \(item)", "how much for the \(item)?",
                "would you take \(1 + random.next(below: 30)) for the \(item)?",
                "I want two \(item)s", "deal", "yes",
            ])
        case 58..<63 where !carried.isEmpty:
            return random.pick([
                "I'd like to sell my \(name(random.pick(carried)))", "would you buy my \(name(random.pick(carried)))?",
            ])
        case 63..<71:
            if !pending.isEmpty { return random.next(below: 3) == 0 ? decline : accept }
            return random.pick([accept, "offers"])
        case 71..<75 where !carried.isEmpty:
            return
                "give \(name(random.pick(carried))) to \(npc.name.split(separator: " ").first.map(String.init) ?? npc.name)"
        case 75..<80:
            return random.pick([
                "my name is \(random.pick(["Wren", "Dax", "Tamsin", "Odo"]))",
                "call me \(random.pick(["Wren", "Dax"]))",
                "what's my name?", "do you remember my name?", "ich heiße \(random.pick(["Wren", "Dax"]))",
                "wie heiße ich?",
            ])
        case 80..<86:
            return random.pick([
                "remind me what I bought off you?", "what did I sell you?", "what did I give you?",
                "what were we talking about?",
            ])
        case 86..<89:
            return "bye"
        case 89..<92 where !exits.isEmpty:
            return "\(go) \(random.pick(exits))"
        case 92..<95:
            return random.pick(["take apple", "drop bread", "look", "inventory"])
        default:
            return lines.isEmpty ? "hello" : random.pick(lines)
        }
    }

    // MARK: - Support

    /// Collects what a game shows, as lines: narration, problems, and each NPC's speech whole.
    final class Screen: Sendable {
        private let shown = Mutex<[String]>([])

        @Sendable func record(_ output: GameOutput) {
            shown.withLock { lines in
                switch output {
                case .narration(let text): lines.append(text)
                case .problem(let text): lines.append("! " + text)
                case .speechBegan(let npc): lines.append(npc + ": ")
                case .speech(let words):
                    if lines.isEmpty { lines.append(words) } else { lines[lines.count - 1] += words }
                case .goalReached(let goal): lines.append("GOAL " + goal)
                case .thinking, .speechEnded, .notice: break
                }
            }
        }

        var lines: [String] { shown.withLock { $0 } }
    }
}

extension GameState {
    /// This state with the player moved to `location` and holding `gold`.
    fileprivate func withPlayer(location: LocationID, gold: Int) -> GameState {
        var player = self.player
        player.location = location
        player.gold = gold
        return GameState(world: world, player: player, story: story)
    }
}
