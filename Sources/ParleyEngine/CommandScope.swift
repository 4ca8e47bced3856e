import GameWorld

/// What a typed line can command at this moment: the ways out, the things lying here and carried, the NPCs here,
/// the catalog, and the pack's lexicon (its command words and directions).
///
/// While the player talks to an NPC, a line is speech unless it is unmistakably a game command:
/// `GameCommand.parse(_:talking:scope:)` takes it for one only when the command's word is followed by what the command
/// takes here ("go north", "give bread to mira", "take apple" with an apple lying here, "examine lantern"); anything
/// else is said to the NPC ("go on then, I'll buy a pie", "give me two loaves"). The scope is what it decides with.
///
/// ```swift
/// let scope = CommandScope(state: game.state)
/// GameCommand.parse("take apple", talking: true, scope: scope)     // .take("apple"): an apple lies here
/// GameCommand.parse("take two loaves", talking: true, scope: scope) // .say(...): no loaves lie here
/// ```
public struct CommandScope: Sendable {
    /// The world, for the names of items; `nil` knows none.
    let world: World?
    /// What lies here.
    let here: Inventory
    /// What the player carries.
    let carried: Inventory
    /// The NPCs here.
    let npcsHere: [NPC]
    /// Every word that names a way out besides the lexicon's directions: every exit's direction in the world, and the
    /// names and ids of the places the exits here lead to; lowercased.
    let directions: Set<String>
    /// The words of the pack's language: its command words, directions and texts.
    public let lexicon: Lexicon
    /// The words that cannot be a save slot's name typed while talking, lowercased: the lexicon's `speaker`,
    /// `listener` and `determiners` words ("save me a pie", "save your breath").
    let notSlotNames: Set<String>

    /// A scope that knows only a lexicon's words (the built-in English one by default): no items, NPCs or exits.
    /// While talking, only lines that need no argument, `/` lines, `say`, `report` and the lexicon's directions are
    /// commands with it.
    ///
    /// - Parameter lexicon: The words commands are typed in.
    public init(lexicon: Lexicon = .english) {
        world = nil
        here = Inventory()
        carried = Inventory()
        npcsHere = []
        directions = []
        self.lexicon = lexicon
        notSlotNames = Self.notSlotNames(in: lexicon)
    }

    /// The scope of a game at this moment.
    ///
    /// - Parameter state: The game.
    public init(state: GameState) {
        let world = state.world
        self.world = world
        here = state.currentLocation?.items ?? Inventory()
        carried = state.player.inventory
        npcsHere = state.npcsHere
        var directions: Set<String> = []
        for location in world.locations.values {
            for exit in location.exits { directions.insert(exit.direction.lowercased()) }
        }
        for exit in state.currentLocation?.exits ?? [] {
            directions.insert(exit.destination.rawValue.lowercased())
            directions.insert(world.name(of: exit.destination).lowercased())
        }
        self.directions = directions
        lexicon = world.lexicon
        notSlotNames = Self.notSlotNames(in: world.lexicon)
    }

    /// The words that cannot be a slot's name while talking.
    private static func notSlotNames(in lexicon: Lexicon) -> Set<String> {
        Set((lexicon.words(.speaker) + lexicon.words(.listener) + lexicon.words(.determiners)).map { $0.lowercased() })
    }

    // MARK: - What a text names

    /// Whether a text is a direction the player could type after `go`: one of the lexicon's, an exit's direction, or
    /// a place an exit here leads to.
    func namesDirection(_ text: String) -> Bool {
        lexicon.direction(named: text) != nil || directions.contains(text.lowercased())
    }

    /// Whether a text names an item in an inventory (lying here, or carried).
    func names(_ text: String, in inventory: Inventory) -> Bool {
        guard let item = world?.item(named: text, preferring: inventory) else { return false }
        return inventory.contains(item.id)
    }

    /// Whether a text names an item lying here.
    func namesItemHere(_ text: String) -> Bool { names(text, in: here) }

    /// Whether a text names an item the player carries.
    func namesItemCarried(_ text: String) -> Bool { names(text, in: carried) }

    /// Whether a text names an item of the catalog, wherever it is.
    func namesItem(_ text: String) -> Bool { world?.item(named: text) != nil }

    /// Whether a text names an NPC here: its id, name or an alias, or only words of its name and aliases
    /// ("sergeant oona").
    func namesNPCHere(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        return npcsHere.contains { npc in
            npc.isNamed(text) || (!words.isEmpty && words.allSatisfy { npc.isNamed($0) })
        }
    }

    /// Whether a text names something to examine: an NPC here or an item of the catalog.
    func namesThing(_ text: String) -> Bool { namesNPCHere(text) || namesItem(text) }

    /// Whether a word can be a save slot's name typed while talking: letters, digits, `-` and `_`, and not one of
    /// the lexicon's `speaker`, `listener` or `determiners` words ("save me" is speech, "save before" a save).
    func isSlotName(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            && !notSlotNames.contains(word.lowercased())
    }
}
