import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import SyntheticWorlds

/// The claim check's cost: building a checker for a world (once per world), then checking one NPC line, on the
/// shipped pack and on a synthetic world of 10,000 items (`SyntheticWorld`, 20 locations, 20 NPCs).
///
/// The lines are the kind NPCs say: a price, a stock listing of six items, "not on my rack", a count, the player's
/// things, an offer to accept, and plain talk. Each line is checked with a turn of three entries (a prompt, a stock
/// report, a response); the transcript before the turn plays no part, so its length cannot change the figures.
enum ClaimCost {
    /// Runs the scenario.
    ///
    /// - Parameter quick: Fewer repetitions.
    static func run(quick: Bool) throws {
        report("## Claim check: the cost of checking one NPC line")
        report("")
        report("| World | Items | Checker built ms | Lines | Line median µs | Line p95 µs | Line max µs |")
        report("|---|---:|---:|---:|---:|---:|---:|")
        let repetitions = quick ? 200 : 2_000
        let shipped = try BenchContent.shippedPack()
        try measure("shipped pack", pack: shipped, repetitions: repetitions)
        let synthetic = SyntheticWorld.generate(seed: 13, locations: 20, npcs: 20, items: 10_000)
        try measure("synthetic", pack: synthetic, repetitions: repetitions)
        report("")
    }

    /// Builds a checker for a pack's world and times lines about its best-stocked trader.
    static func measure(_ name: String, pack: ContentPack, repetitions: Int) throws {
        let world = pack.world
        let traders = world.npcs.values.filter { $0.trade.trades && !$0.inventory.isEmpty }
        guard let trader = traders.max(by: { ($0.inventory.stacks.count, $1.id) < ($1.inventory.stacks.count, $0.id) })
        else { throw BenchError("the \(name) world has no trader with stock") }
        var player = pack.startingPlayer
        player.location = trader.location
        let state = GameState(world: world, player: player)
        let (built, checker) = Measure.time { ClaimChecker(world: world) }
        let stocked = trader.inventory.stacks.prefix(6).compactMap { world.items[$0.item] }
        guard let first = stocked.first else { throw BenchError("the \(name) trader has nothing") }
        let price = trader.trade.askingPrice(forValue: first.value)
        let listing = stocked.map { "\($0.name) (\(trader.trade.askingPrice(forValue: $0.value)) gold)" }
            .joined(separator: ", ")
        let lines = [
            "The \(first.name)? \(price) gold, friend. Worth every coin.",
            "Have a look, friend, all honest goods: \(listing). And haggling's welcome, mind you!",
            "\(first.category.capitalized)s? Not on my rack.",
            "I have \(trader.inventory.quantity(of: first.id)) \(first.name), friend.",
            "You've no \(first.name) on you, friend. I'd have noticed.",
            "A fine choice! 1 \(first.name) for \(price) gold. Say accept and it's yours, friend.",
            "Busy, busy, friend! Market day, and everyone wants everything. I love it.",
        ]
        let stock = StockReport(lines: [
            .init(item: first.id, name: first.name, quantity: 1, price: price, lowestPrice: price)
        ])
        let turn: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "how much?"))])),
            .toolOutput(
                Transcript.ToolOutput(
                    id: "1", toolName: "lookUpStock",
                    segments: [.structure(.init(source: "lookUpStock", content: stock.generatedContent))])),
            .response(Transcript.Response(segments: [.text(.init(content: lines[0]))])),
        ]
        var samples: [Double] = []
        var found = 0
        for line in lines {
            samples += Measure.milliseconds(repetitions: repetitions) {
                found &+=
                    checker.falseClaims(
                        in: line, npc: trader.id, state: state, turnEntries: turn, pendingOffer: nil
                    ).count
            }
        }
        guard found > 0 else { throw BenchError("the \(name) lines should hold a false claim (not on my rack)") }
        let micro = samples.map { $0 * 1_000 }
        report(
            "| \(name) | \(world.items.count) | \(format(built, digits: 1)) | \(lines.count) "
                + "| \(format(Measure.median(micro), digits: 1)) | \(format(Measure.percentile(micro, 95), digits: 1)) "
                + "| \(format(micro.max() ?? .nan, digits: 1)) |")

    }
}
