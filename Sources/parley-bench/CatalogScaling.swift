import Foundation
import GameWorld
import ParleyEngine
import ScriptedModel
import SyntheticWorlds

/// Scenario 7: the cost of talking to an NPC against the size of the item catalogue.
///
/// For each size, a synthetic pack (`SyntheticWorld`, 20 locations, 20 NPCs, N kinds of item) is generated and
/// loaded; the player stands by a trader and talks to it with the scripted model: the first `talk to` (which
/// builds the NPC's model and the game's indexes over the catalogue), then lines that make the NPC list its stock,
/// price an item it sells (by name), and answer about a thing it does not have. Every turn is timed on its own,
/// wall clock, through `Game.perform`. The target: every turn well under a second at 100,000 items; a turn's cost
/// grows at most in proportion to the catalogue (a ratio of at most 100 from 1,000 to 100,000 items).
enum CatalogScaling {
    /// The catalogue sizes measured.
    static let defaultSizes = [1_000, 10_000, 100_000]

    /// Runs the scenario.
    ///
    /// - Parameters:
    ///   - quick: One round of lines instead of three.
    ///   - sizes: The catalogue sizes.
    static func run(quick: Bool, sizes: [Int] = defaultSizes) async throws {
        report("## 7. Talking to an NPC against the size of the item catalogue")
        report("")
        report(
            "| Items | Pack generated and loaded ms | First `talk to` ms | Turns timed | Turn median ms | Turn max ms |"
        )
        report("|---:|---:|---:|---:|---:|---:|")
        var slowest: [Int: Double] = [:]
        var medians: [Int: Double] = [:]
        var talks: [Int: Double] = [:]
        for size in sizes {
            let result = try await measure(items: size, rounds: quick ? 1 : 3)
            medians[size] = Measure.median(result.turns)
            talks[size] = result.talk
            slowest[size] = max(result.talk, result.turns.max() ?? 0)
            report(
                "| \(size) | \(format(result.load, digits: 0)) | \(format(result.talk, digits: 1)) "
                    + "| \(result.turns.count) | \(format(Measure.median(result.turns), digits: 1)) "
                    + "| \(format(result.turns.max() ?? .nan, digits: 1)) |")
        }
        report("")
        if let smallest = sizes.min(), let largest = sizes.max(), largest > smallest {
            let growth = Double(largest) / Double(smallest)
            for (what, figures) in [("First `talk to`", talks), ("Turn median", medians)] {
                guard let low = figures[smallest], let high = figures[largest] else { continue }
                report(
                    "\(what) from \(smallest) to \(largest) items: \(format(high / low, digits: 1))× "
                        + "for \(format(growth, digits: 0))× the items "
                        + "(\(high / low <= growth * 1.5 ? "linear" : "faster than linear: QUADRATIC PATHS REMAIN")).")
            }
        }
        if let at100k = slowest[100_000] {
            report(
                "Target: every turn, the first `talk to` included, well under a second at 100,000 items: slowest "
                    + "\(format(at100k, digits: 1)) ms, \(verdict(at100k < 1_000)).")
        }
        report("")
    }

    /// What one size measured, in milliseconds.
    struct Result {
        /// Generating and loading the pack (not part of the target).
        var load: Double
        /// The first `talk to`.
        var talk: Double
        /// Each later turn.
        var turns: [Double]
    }

    /// Generates a pack of `items` kinds of item and times a conversation with a trader in it.
    static func measure(items: Int, rounds: Int) async throws -> Result {
        let (load, pack) = Measure.time { SyntheticWorld.generate(seed: 13, locations: 20, npcs: 20, items: items) }
        let world = pack.world
        // The trader with the most to sell; the player stands by it.
        func forSale(by npc: NPC) -> [Item] {
            npc.inventory.stacks.compactMap { world.items[$0.item] }.filter { item in
                npc.trade.trades && item.isTradeable && npc.trade.sells.contains(item.category)
                    && !npc.trade.neverSells.contains(item.id)
            }
        }
        let traders = world.npcs.values.filter { !forSale(by: $0).isEmpty }
        guard
            let trader = traders.max(by: { (forSale(by: $0).count, $1.id) < (forSale(by: $1).count, $0.id) }),
            let stocked = forSale(by: trader).first
        else { throw BenchError("the synthetic pack of \(items) items has no trader with stock") }
        var player = pack.startingPlayer
        player.location = trader.location
        let state = GameState(world: world, player: player)
        let game = Game(state: state, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        let shown = LinesBox()
        let output: @Sendable (GameOutput) -> Void = shown.append
        let (talk, _) = await Measure.time { await game.perform("talk to \(trader.id.rawValue)", output: output) }
        guard await game.partner == trader.id else { throw BenchError("could not talk to \(trader.id)") }
        let lines = [
            "what do you sell?", "how much is the \(stocked.name)?", "do you have a unicorn horn?",
            "how much for \(stocked.name.lowercased())?",
        ]
        var turns: [Double] = []
        for _ in 0..<rounds {
            for line in lines {
                let (milliseconds, _) = await Measure.time { await game.perform(line, output: output) }
                turns.append(milliseconds)
            }
        }
        if let problem = shown.text.split(separator: "\n").first(where: { $0.hasPrefix("problem(") }) {
            throw BenchError("a turn at \(items) items failed: \(problem)")
        }
        return Result(load: load, talk: talk, turns: turns)
    }
}
