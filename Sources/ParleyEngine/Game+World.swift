import GameWorld
import NPCContract
import ParleyBasics

// Moving around and handling items: the commands that need no model.

extension Game {
    func describeLocation() -> String {
        let state = self.state
        guard let location = state.currentLocation else { return "You are nowhere." }
        var lines = ["\(location.name)", location.description]
        let items = location.items.map { state.world.name(of: $0.item) + ($0.quantity > 1 ? " (\($0.quantity))" : "") }
        if !items.isEmpty { lines.append("You see: \(items.joined(separator: ", ")).") }
        let people = state.npcsHere.map(\.name).sorted()
        if !people.isEmpty { lines.append("Here: \(people.joined(separator: ", ")).") }
        let exits = location.exits.map { "\($0.direction) (\(state.world.name(of: $0.destination)))" }
        lines.append(exits.isEmpty ? "There is no way out." : "Exits: \(exits.joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }

    func describeInventory() -> String {
        let state = self.state
        let items = state.player.inventory.sorted { $0.item.rawValue < $1.item.rawValue }
            .map { "  \(state.world.name(of: $0.item))" + ($0.quantity > 1 ? " × \($0.quantity)" : "") }
        let carried = items.isEmpty ? "You carry nothing." : "You carry:\n" + items.joined(separator: "\n")
        return carried + "\nGold: \(state.player.gold)"
    }

    func go(_ direction: String, output: (GameOutput) -> Void) async {
        let state = self.state
        guard let location = state.currentLocation else { return }
        // The direction as typed, or as the lexicon names it ("norden" for an exit written "north", and back).
        let lexicon = state.world.lexicon
        let exit =
            location.exit(toward: direction)
            ?? lexicon.direction(named: direction).flatMap { named in
                location.exits.first { lexicon.direction(named: $0.direction) == named }
            }
            ?? location.exits.first { state.world.name(of: $0.destination).lowercased() == direction.lowercased() }
            ?? location.exits.first { $0.destination.rawValue == direction.lowercased() }
        guard let exit else {
            let ways = location.exits.map(\.direction).joined(separator: ", ")
            return output(.problem("You can't go \(direction) from here. Exits: \(ways)."))
        }
        do {
            try shared.apply(.moved(from: location.id, to: exit.destination))
        } catch {
            return output(.problem(exit.lockedMessage ?? error.message))
        }
        if let partner {
            output(.narration("You leave \(state.world.name(of: partner))."))
            self.partner = nil
        }
        output(.narration(describeLocation()))
        for npc in self.state.npcsHere.map(\.id).sorted(by: { $0.rawValue < $1.rawValue }) {
            await fireBeat(.arrive, npc: npc, witnessed: .arrivedHere, output: output, alwaysInstead: true)
        }
        // The NPCs here may be talked to next: their models prepare in the background (see `Game+Prewarm.swift`).
        prewarmNPCsHere()
    }

    /// Describes an NPC here, or an item carried, lying here or on the stall of an NPC here (goods it sells), in that
    /// order; a name that fits nothing gets the names that are here, with a did-you-mean.
    func examine(_ name: String, output: (GameOutput) -> Void) {
        let state = self.state
        if let npc = npcHere(named: name) { return output(.narration("\(npc.name): \(npc.description)")) }
        let carried = state.player.inventory
        let here = state.currentLocation?.items ?? Inventory()
        for place in [carried, here] {
            if let item = state.world.item(named: name, preferring: place), place.contains(item.id) {
                return output(.narration("\(item.name): \(item.description)"))
            }
        }
        let stalls = stallsHere()
        for (npc, goods) in stalls {
            if let item = state.world.item(named: name, preferring: goods), goods.contains(item.id) {
                return output(.narration("\(item.name): \(item.description) \(npc.name) sells it."))
            }
        }
        var seen: Set<String> = []
        let names =
            (state.npcsHere.map(\.name)
            + (carried.map(\.item) + here.map(\.item) + stalls.flatMap { $0.goods.map(\.item) })
            .map { state.world.name(of: $0) }).filter { seen.insert($0).inserted }
        // A typo of a whole name or of one of its words ("mria" for Mira Quickcoin).
        var byWord: [String: String] = [:]
        for full in names {
            for word in [full] + full.split(separator: " ").map(String.init) where byWord[word.lowercased()] == nil {
                byWord[word.lowercased()] = full
            }
        }
        let guess = Suggestions.closest(to: name.lowercased(), in: byWord.keys.sorted()).flatMap { byWord[$0] }
        output(
            .problem(
                "You see no \(name) here."
                    + (guess.map { " " + Suggestions.didYouMean($0, quotes: .none, startsSentence: true) } ?? "")
                    + (names.isEmpty ? "" : " You can examine: \(names.joined(separator: ", ")).")))
    }

    /// The NPCs here who sell something they carry, by name, each with those goods.
    func stallsHere() -> [(npc: NPC, goods: Inventory)] {
        let world = state.world
        return state.npcsHere.sorted { $0.name < $1.name }.compactMap { npc in
            let goods = Inventory(npc.inventory.filter { stack in world.items[stack.item].map(npc.sells) ?? false })
            return goods.isEmpty ? nil : (npc, goods)
        }
    }

    func take(_ name: String, output: (GameOutput) -> Void) {
        let state = self.state
        guard let location = state.currentLocation,
            let item = state.world.item(named: name, preferring: location.items), location.items.contains(item.id)
        else { return output(.problem("There is no \(name) here.")) }
        do {
            try shared.apply(.tookItem(item: item.id, quantity: 1, from: location.id))
            output(.narration("You take the \(item.name)."))
        } catch {
            output(.problem(error.message))
        }
    }

    func drop(_ name: String, output: (GameOutput) -> Void) {
        let state = self.state
        guard let item = state.world.item(named: name, preferring: state.player.inventory),
            state.player.inventory.contains(item.id)
        else { return output(.problem("You don't have a \(name).")) }
        do {
            try shared.apply(.droppedItem(item: item.id, quantity: 1, at: state.player.location))
            output(.narration("You drop the \(item.name)."))
        } catch {
            output(.problem(error.message))
        }
    }

    /// Hands an item to an NPC here; the NPC sees it happen and answers.
    func give(_ name: String, to npcName: String?, output: (GameOutput) -> Void) async {
        let state = self.state
        guard let npc = npcName.flatMap(npcHere(named:)) ?? partner.flatMap({ state.world.npcs[$0] }) else {
            return output(
                .problem(
                    npcName.map { "There is no \($0) here." } ?? "Give it to whom? For example: give \(name) to mira"))
        }
        guard let item = state.world.item(named: name, preferring: state.player.inventory),
            state.player.inventory.contains(item.id)
        else { return output(.problem("You don't have a \(name).")) }
        do {
            try shared.apply(.gave(item: item.id, quantity: 1, to: npc.id))
        } catch {
            return output(.problem(error.message))
        }
        output(.narration("You give the \(item.name) to \(npc.name)."))
        if partner != npc.id {
            partner = npc.id
        }
        await witness(.gave(item: item.id, quantity: 1), npc: npc.id, beat: .itemGiven(item.id), output: output)
    }

    func npcHere(named name: String) -> NPC? {
        state.npcsHere.first { $0.isNamed(name) }
            ?? state.npcsHere.first { npc in name.split(separator: " ").contains { npc.isNamed(String($0)) } }
    }
}
