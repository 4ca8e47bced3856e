import Foundation
import GameWorld
import ParleyBasics
import ParleyJSON

/// The game's own state, pushed into Parley: what a game with a world of its own tells Parley about its player, its
/// NPCs and its story, so that NPCs see it on their next turn (their tools, their dialogue rules' conditions) and the
/// next save keeps it.
///
/// A patch names only what it changes; everything it leaves out stays as it is. Inventories are patched item by item:
/// `["bread": 2]` sets the bread to 2 and leaves the other items alone, and a quantity of 0 removes the item. The same
/// value as JSON, as `PATCH /v1/games/{id}/state` takes it:
///
/// ```json
/// {"player": {"name": "Wren", "gold": 40, "inventory": {"bread": 2}, "location": "smithy"},
///  "npcs": {"mira": {"gold": 120, "inventory": {"lantern": 0}, "location": "market_square", "attitude": 20}},
///  "flags": {"set": ["gate_open"], "clear": ["curfew"]},
///  "counters": {"goose_visits": 3},
///  "quests": {"locket": "asked"}}
/// ```
///
/// ```swift
/// var patch = StatePatch()
/// patch.player.gold = 40
/// patch.npcs["mira", default: .init()].inventory["lantern"] = 0
/// let changes = try await game.apply(patch)     // throws StatePatchError, changing nothing, when any part is wrong
/// ```
///
/// A patch is checked as a save is when it loads (`docs/save-format.md`): every id must be the world's (an unknown one
/// gets a did-you-mean), gold is 0 to `GameLimits.maximumGold`, a quantity 0 to `GameLimits.maximumQuantity`, a
/// counter in `StoryState.counterRange`, an attitude in `StoryState.attitudeRange`, a quest stage one of the quest's
/// stages (any of them: the game owns its story, so a quest may also be set back). It applies whole or not at all.
public struct StatePatch: Sendable, Equatable {
    /// What a patch changes of the player.
    public struct PlayerChanges: Sendable, Equatable {
        /// The player's new name, or `nil` to keep it.
        public var name: String?
        /// The player's gold, or `nil` to keep it.
        public var gold: Int?
        /// The new quantity of each item listed (0 removes it); items not listed are kept.
        public var inventory: [ItemID: Int]
        /// Where the player is now, or `nil` to keep it. The player need not walk there: the game moved them.
        public var location: LocationID?

        /// Creates the changes of the player.
        ///
        /// - Parameters:
        ///   - name: The new name, or `nil`.
        ///   - gold: The gold, or `nil`.
        ///   - inventory: The new quantity of each item listed.
        ///   - location: The new location, or `nil`.
        public init(name: String? = nil, gold: Int? = nil, inventory: [ItemID: Int] = [:], location: LocationID? = nil)
        {
            self.name = name
            self.gold = gold
            self.inventory = inventory
            self.location = location
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool { name == nil && gold == nil && inventory.isEmpty && location == nil }
    }

    /// What a patch changes of one NPC.
    public struct NPCChanges: Sendable, Equatable {
        /// The NPC's gold, or `nil` to keep it.
        public var gold: Int?
        /// The new quantity of each item listed (0 removes it): the NPC's stock, for an NPC that sells.
        public var inventory: [ItemID: Int]
        /// Where the NPC is now, or `nil` to keep it.
        public var location: LocationID?
        /// The NPC's attitude toward the player (-100 to 100), or `nil` to keep it.
        public var attitude: Int?

        /// Creates the changes of an NPC.
        ///
        /// - Parameters:
        ///   - gold: The gold, or `nil`.
        ///   - inventory: The new quantity of each item listed.
        ///   - location: The new location, or `nil`.
        ///   - attitude: The attitude, or `nil`.
        public init(gold: Int? = nil, inventory: [ItemID: Int] = [:], location: LocationID? = nil, attitude: Int? = nil)
        {
            self.gold = gold
            self.inventory = inventory
            self.location = location
            self.attitude = attitude
        }
    }

    /// What changes of the player.
    public var player: PlayerChanges
    /// What changes of each NPC listed.
    public var npcs: [NPCID: NPCChanges]
    /// The flags to set.
    public var setFlags: [String]
    /// The flags to clear.
    public var clearFlags: [String]
    /// The new value of each counter listed.
    public var counters: [String: Int]
    /// The new stage of each quest listed.
    public var quests: [QuestID: String]

    /// Creates a patch; by default one that changes nothing.
    ///
    /// - Parameters:
    ///   - player: What changes of the player.
    ///   - npcs: What changes of each NPC.
    ///   - setFlags: The flags to set.
    ///   - clearFlags: The flags to clear.
    ///   - counters: The new value of each counter.
    ///   - quests: The new stage of each quest.
    public init(
        player: PlayerChanges = PlayerChanges(), npcs: [NPCID: NPCChanges] = [:], setFlags: [String] = [],
        clearFlags: [String] = [], counters: [String: Int] = [:], quests: [QuestID: String] = [:]
    ) {
        self.player = player
        self.npcs = npcs
        self.setFlags = setFlags
        self.clearFlags = clearFlags
        self.counters = counters
        self.quests = quests
    }

    /// Whether the patch names nothing to change.
    public var isEmpty: Bool {
        player.isEmpty && npcs.isEmpty && setFlags.isEmpty && clearFlags.isEmpty && counters.isEmpty && quests.isEmpty
    }

    /// The longest name a player may be given, in characters.
    public static let maximumNameLength = 64

    /// Whether a player may be given this name: 1 to ``maximumNameLength`` characters once spaces around it are
    /// removed, and no control characters (line breaks, tabs). `parley play --name` and `PATCH /v1/games/{id}/state`
    /// apply the same rule.
    ///
    /// - Parameter name: The name.
    /// - Returns: Whether it is allowed.
    public static func isValidName(_ name: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && trimmed.count <= maximumNameLength
            && !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    }

    // MARK: - JSON

    /// The members a patch may have, and those of its parts.
    static let fields = ["player", "npcs", "flags", "counters", "quests"]
    static let playerFields = ["name", "gold", "inventory", "location"]
    static let npcFields = ["gold", "inventory", "location", "attitude"]
    static let flagFields = ["set", "clear"]

    /// Reads a patch from its JSON (see the type's description), checking its shape: every member known, every value
    /// of its type. Ids and ranges are checked against the world by ``check(in:)`` and when the patch is applied.
    ///
    /// - Parameter json: The patch as JSON, an object.
    /// - Throws: ``StatePatchError`` listing every problem, each at its JSON path (`$.player.gold`).
    public init(json: JSONValue) throws(StatePatchError) {
        var reader = PatchReader()
        self.init()
        guard let object = reader.object(json, at: "$") else { throw reader.error }
        reader.unknownMembers(of: object, at: "$", known: Self.fields)
        if let value = object["player"], let player = reader.object(value, at: "$.player") {
            reader.unknownMembers(of: player, at: "$.player", known: Self.playerFields)
            self.player.name = player["name"].flatMap { reader.string($0, at: "$.player.name") }
            self.player.gold = player["gold"].flatMap { reader.integer($0, at: "$.player.gold") }
            self.player.inventory = player["inventory"].map { reader.inventory($0, at: "$.player.inventory") } ?? [:]
            self.player.location = player["location"].flatMap { reader.string($0, at: "$.player.location") }
                .map { LocationID($0) }
        }
        if let value = object["npcs"], let npcs = reader.object(value, at: "$.npcs") {
            for (id, value) in npcs {
                let path = PatchReader.path("$.npcs", id)
                guard let npc = reader.object(value, at: path) else { continue }
                reader.unknownMembers(of: npc, at: path, known: Self.npcFields)
                self.npcs[NPCID(id)] = NPCChanges(
                    gold: npc["gold"].flatMap { reader.integer($0, at: path + ".gold") },
                    inventory: npc["inventory"].map { reader.inventory($0, at: path + ".inventory") } ?? [:],
                    location: npc["location"].flatMap { reader.string($0, at: path + ".location") }.map {
                        LocationID($0)
                    },
                    attitude: npc["attitude"].flatMap { reader.integer($0, at: path + ".attitude") })
            }
        }
        if let value = object["flags"], let flags = reader.object(value, at: "$.flags") {
            reader.unknownMembers(of: flags, at: "$.flags", known: Self.flagFields)
            setFlags = flags["set"].map { reader.strings($0, at: "$.flags.set") } ?? []
            clearFlags = flags["clear"].map { reader.strings($0, at: "$.flags.clear") } ?? []
        }
        if let value = object["counters"], let counters = reader.object(value, at: "$.counters") {
            for (name, value) in counters {
                if let number = reader.integer(value, at: PatchReader.path("$.counters", name)) {
                    self.counters[name] = number
                }
            }
        }
        if let value = object["quests"], let quests = reader.object(value, at: "$.quests") {
            for (id, value) in quests {
                if let stage = reader.string(value, at: PatchReader.path("$.quests", id)) {
                    self.quests[QuestID(id)] = stage
                }
            }
        }
        if !reader.problems.isEmpty { throw reader.error }
    }

    // MARK: - Checking and applying

    /// Checks the patch against a world: every id the world's, every value in its range, as a save's are checked when
    /// it loads. None of it depends on the state, so a patch that passes applies to any state of this world.
    ///
    /// - Parameter world: The world.
    /// - Throws: ``StatePatchError`` listing every problem, each at its JSON path, with a did-you-mean for an id that
    ///   is probably a typo.
    public func check(in world: World) throws(StatePatchError) {
        var problems: [StatePatchError.Problem] = []
        func fail(_ path: String, _ message: String) { problems.append(.init(path: path, message: message)) }
        func known<ID>(
            _ id: Identifier<ID>, among ids: some Collection<Identifier<ID>>, _ kind: String, at path: String
        )
            -> Bool
        {
            guard !ids.contains(id) else { return true }
            let guess = Suggestions.closest(to: id.rawValue, in: ids.map(\.rawValue).sorted())
            fail(path, "unknown \(kind) \"\(id.rawValue)\"" + (guess.map { " (\(Suggestions.didYouMean($0)))" } ?? ""))
            return false
        }
        func gold(_ value: Int?, at path: String) {
            guard let value, !(0...GameLimits.maximumGold).contains(value) else { return }
            fail(path, "gold must be from 0 to \(GameLimits.maximumGold), not \(value)")
        }
        func inventory(_ items: [ItemID: Int], at path: String) {
            for (item, quantity) in items.sorted(by: { $0.key < $1.key }) {
                let itemPath = PatchReader.path(path, item.rawValue)
                guard known(item, among: world.items.keys, "item", at: itemPath) else { continue }
                if !(0...GameLimits.maximumQuantity).contains(quantity) {
                    fail(
                        itemPath,
                        "a quantity must be from 0 (none) to \(GameLimits.maximumQuantity), not \(quantity)")
                }
            }
        }
        func location(_ id: LocationID?, at path: String) {
            if let id { _ = known(id, among: world.locations.keys, "location", at: path) }
        }
        func name(_ text: String, _ kind: String, at path: String) {
            guard !ItemID.isWellFormed(text) else { return }
            fail(
                path,
                "\"\(text)\" is not a valid \(kind) name: use lowercase letters, digits and _, starting with a letter")
        }

        if let playerName = player.name {
            if !Self.isValidName(playerName) {
                fail(
                    "$.player.name",
                    "a name has 1 to \(Self.maximumNameLength) characters and no control characters (line breaks, tabs)"
                )
            }
        }
        gold(player.gold, at: "$.player.gold")
        inventory(player.inventory, at: "$.player.inventory")
        location(player.location, at: "$.player.location")
        for (id, changes) in npcs.sorted(by: { $0.key < $1.key }) {
            let path = PatchReader.path("$.npcs", id.rawValue)
            guard known(id, among: world.npcs.keys, "NPC", at: path) else { continue }
            gold(changes.gold, at: path + ".gold")
            inventory(changes.inventory, at: path + ".inventory")
            location(changes.location, at: path + ".location")
            if let attitude = changes.attitude, !StoryState.attitudeRange.contains(attitude) {
                fail(
                    path + ".attitude",
                    "an attitude must be from \(StoryState.attitudeRange.lowerBound) to "
                        + "\(StoryState.attitudeRange.upperBound), not \(attitude)")
            }
        }
        for (index, flag) in setFlags.enumerated() { name(flag, "flag", at: "$.flags.set[\(index)]") }
        for (index, flag) in clearFlags.enumerated() {
            name(flag, "flag", at: "$.flags.clear[\(index)]")
            if setFlags.contains(flag) {
                fail(
                    "$.flags.clear[\(index)]", "the flag \"\(flag)\" is both set and cleared: give it in one list only")
            }
        }
        for (counter, value) in counters.sorted(by: { $0.key < $1.key }) {
            let path = PatchReader.path("$.counters", counter)
            name(counter, "counter", at: path)
            if !StoryState.counterRange.contains(value) {
                fail(
                    path,
                    "a counter must be from \(StoryState.counterRange.lowerBound) to "
                        + "\(StoryState.counterRange.upperBound), not \(value)")
            }
        }
        for (id, stage) in quests.sorted(by: { $0.key < $1.key }) {
            let path = PatchReader.path("$.quests", id.rawValue)
            guard known(id, among: world.quests.keys, "quest", at: path), let quest = world.quests[id] else { continue }
            if quest.index(of: stage) == nil {
                let guess = Suggestions.closest(to: stage, in: quest.stages)
                fail(
                    path,
                    "the quest \(id.rawValue) has no stage \"\(stage)\""
                        + (guess.map { " (\(Suggestions.didYouMean($0)))" } ?? "")
                        + "; its stages are \(quest.stages.joined(separator: ", "))")
            }
        }
        if !problems.isEmpty { throw StatePatchError(problems: problems) }
    }

    /// The state with the patch applied, and what changed, in a fixed order (the player, the NPCs by id, flags,
    /// counters, quests); values set to what they already were are not changes.
    ///
    /// - Parameter state: The state now.
    /// - Returns: The new state and its changes.
    /// - Throws: ``StatePatchError`` when ``check(in:)`` fails; the state is then unchanged.
    public func applied(to state: GameState) throws(StatePatchError) -> (state: GameState, changes: [StateChange]) {
        try check(in: state.world)
        var patched = state
        let changes = apply(to: &patched)
        return (patched, changes)
    }

    /// Applies a patch that passed ``check(in:)`` for the state's world.
    ///
    /// - Parameter state: The state to change.
    /// - Returns: What changed.
    func apply(to state: inout GameState) -> [StateChange] {
        var world = state.world
        var player = state.player
        var story = state.story
        var changes: [StateChange] = []

        if let name = self.player.name?.trimmingCharacters(in: .whitespaces), name != player.name {
            changes.append(.playerName(from: player.name, to: name))
            player.name = name
        }
        if let gold = self.player.gold, gold != player.gold {
            changes.append(.playerGold(from: player.gold, to: gold))
            player.gold = gold
        }
        player.inventory = Self.patched(player.inventory, with: self.player.inventory) { item, from, to in
            changes.append(.playerItem(item, from: from, to: to))
        }
        if let location = self.player.location, location != player.location {
            changes.append(.playerLocation(from: player.location, to: location))
            player.location = location
        }
        for (id, patch) in npcs.sorted(by: { $0.key < $1.key }) {
            guard var npc = world.npcs[id] else { continue }
            if let gold = patch.gold, gold != npc.gold {
                changes.append(.npcGold(id, from: npc.gold, to: gold))
                npc.gold = gold
            }
            npc.inventory = Self.patched(npc.inventory, with: patch.inventory) { item, from, to in
                changes.append(.npcItem(id, item, from: from, to: to))
            }
            if let location = patch.location, location != npc.location {
                changes.append(.npcLocation(id, from: npc.location, to: location))
                npc.location = location
            }
            if let attitude = patch.attitude, attitude != story.attitude(of: id) {
                changes.append(.attitude(id, from: story.attitude(of: id), to: attitude))
                story.attitudes[id] = attitude == 0 ? nil : attitude
            }
            world.npcs[id] = npc
        }
        for flag in setFlags where story.flags.insert(flag).inserted { changes.append(.flagSet(flag)) }
        for flag in clearFlags where story.flags.remove(flag) != nil { changes.append(.flagCleared(flag)) }
        for (counter, value) in counters.sorted(by: { $0.key < $1.key }) where value != story.counter(counter) {
            changes.append(.counter(counter, from: story.counter(counter), to: value))
            story.counters[counter] = value == 0 ? nil : value
        }
        for (id, stage) in quests.sorted(by: { $0.key < $1.key }) {
            guard let quest = world.quests[id] else { continue }
            let current = story.quests[id] ?? quest.firstStage
            guard stage != current else { continue }
            changes.append(.quest(id, from: current, to: stage))
            story.quests[id] = stage == quest.firstStage ? nil : stage
        }
        state = GameState(world: world, player: player, story: story)
        return changes
    }

    /// An inventory with the quantities of `items` set (0 removes), calling `changed` for each that differs.
    private static func patched(
        _ inventory: Inventory, with items: [ItemID: Int], changed: (ItemID, Int, Int) -> Void
    ) -> Inventory {
        guard !items.isEmpty else { return inventory }
        var quantities = inventory.quantities
        for (item, quantity) in items.sorted(by: { $0.key < $1.key }) where quantity != inventory.quantity(of: item) {
            changed(item, inventory.quantity(of: item), quantity)
            quantities[item] = quantity == 0 ? nil : quantity
        }
        return Inventory(quantities.map { ItemStack($0.key, quantity: $0.value) })
    }
}

/// Reads a patch's JSON, collecting every problem with its path rather than stopping at the first.
private struct PatchReader {
    var problems: [StatePatchError.Problem] = []

    var error: StatePatchError { StatePatchError(problems: problems) }

    /// `base.key`, or `base["key"]` for a key that is not a plain word.
    static func path(_ base: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
            && !("0"..."9").contains(key.unicodeScalars.first!)
        if plain { return base + "." + key }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return base + "[\"" + escaped + "\"]"
    }

    mutating func fail(_ path: String, _ message: String) { problems.append(.init(path: path, message: message)) }

    mutating func object(_ value: JSONValue, at path: String) -> JSONObject? {
        guard let object = value.objectValue else {
            fail(path, "expected an object, found \(value.typeName)")
            return nil
        }
        return object
    }

    mutating func unknownMembers(of object: JSONObject, at path: String, known: [String]) {
        for key in object.keys where !known.contains(key) {
            let guess = Suggestions.closest(to: key, in: known)
            fail(
                Self.path(path, key),
                "unknown member \"\(key)\"" + (guess.map { " (\(Suggestions.didYouMean($0)))" } ?? "")
                    + "; known here: \(known.joined(separator: ", "))")
        }
    }

    mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard let text = value.stringValue else {
            fail(path, "expected a string, found \(value.typeName)")
            return nil
        }
        return text
    }

    mutating func integer(_ value: JSONValue, at path: String) -> Int? {
        guard let number = value.intValue else {
            fail(
                path,
                "expected a whole number, found \(value.typeName == "number" ? "\(value.jsonString())" : value.typeName)"
            )
            return nil
        }
        return number
    }

    mutating func strings(_ value: JSONValue, at path: String) -> [String] {
        guard let elements = value.arrayValue else {
            fail(path, "expected an array of names, found \(value.typeName)")
            return []
        }
        return elements.enumerated().compactMap { index, element in string(element, at: path + "[\(index)]") }
    }

    /// `{"item": quantity}`; `null` is 0.
    mutating func inventory(_ value: JSONValue, at path: String) -> [ItemID: Int] {
        guard let object = object(value, at: path) else { return [:] }
        var items: [ItemID: Int] = [:]
        for (item, quantity) in object {
            if quantity.isNull {
                items[ItemID(item)] = 0
            } else if let number = integer(quantity, at: Self.path(path, item)) {
                items[ItemID(item)] = number
            }
        }
        return items
    }
}
