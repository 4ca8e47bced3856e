import LanguageModels

/// The NPC tools of the engine's contract, as stubs over a `GameTable`.
struct LookUpStock: Tool {
    let table: GameTable
    let name = "lookUpStock"
    let description = "Looks up the NPC's stock, or one item in it."
    func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        table.log(name, arguments)
        return table.stock(item: arguments.string("item"))
    }
}

struct InspectPlayer: Tool {
    let table: GameTable
    let name = "inspectPlayer"
    let description = "Looks at the player: name, gold and what they carry."
    func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        table.log(name, arguments)
        return table.player()
    }
}

struct OfferTrade: Tool {
    let table: GameTable
    let name = "offerTrade"
    let description = "Proposes a trade to the player."
    func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        table.log(name, arguments)
        return table.offer(arguments)
    }
}

struct GiveItem: Tool {
    let table: GameTable
    let name = "giveItem"
    let description = "Gives the player an item for free."
    func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        table.log(name, arguments)
        return table.move(arguments, gift: false)
    }
}

struct AcceptGift: Tool {
    let table: GameTable
    let name = "acceptGift"
    let description = "Takes an item the player offered."
    func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        table.log(name, arguments)
        return table.move(arguments, gift: true)
    }
}
