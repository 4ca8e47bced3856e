import GameWorld
import ParleyJSON

/// Reads a content pack's files into a world, collecting every problem instead of stopping at the first.
///
/// It works in passes: parse every file (syntax errors name line and column); collect the ids every file
/// defines, so references can be checked whatever the order of files; decode `items.json`, `world.json` and
/// each NPC with their references; then check the pack as a whole (reachability, the goal, names). The pack is
/// built only when no error was found.
///
/// Its readers of fields (`string`, `integer`, `unknownFields`, ...) and of `lexicon.json` (`decodeLexicon`) are
/// `ContentReading`'s, in `GameWorld`, which reads the built-in lexicons with them too.
struct ContentLoader: ContentReading {
    /// Limits on numbers in content files; the amounts are the game's own (`GameLimits`).
    enum Limits {
        static let value = 0...GameLimits.maximumItemValue
        static let gold = 0...GameLimits.maximumGold
        static let quantity = 1...GameLimits.maximumQuantity
        static let sentences = 1...NPCVoice.maximumSentences
        static let speechPitch = NPCSpeech.pitchRange
        static let speechRate = NPCSpeech.rateRange
        static let sellMarkup = 100...1_000
        static let buyBackRate = 0...100
        static let minimumPriceRatio = 0...1_000
    }

    /// The pack directory as the user typed it, without a trailing `/`.
    let displayPath: String

    // MARK: Diagnostics

    /// Diagnostics with the rank of their file and the order they were found in.
    private var found: [(rank: Int, order: Int, diagnostic: ContentDiagnostic)] = []
    /// The file being read, as displayed.
    var file = ""
    /// The file's rank in the output: world, items, then NPCs by file name, then others.
    var fileRank = 0

    // MARK: Ids defined anywhere in the pack (first pass)

    var itemIDs: Set<String> = []
    var locationIDs: Set<String> = []
    var npcIDs: Set<String> = []
    var categories: Set<String> = []
    /// The ids `actions.json` declares, for dialogue rules' calls.
    var actionIDs: Set<String> = []
    /// Each quest's stages, in order, as `world.json` declares them.
    var questStages: [String: [String]] = [:]
    /// The kinds of id (`item`, `location`, `NPC`) whose file could not be read, so references to them are
    /// not checked: every one would be an error that fixing the file removes.
    var unresolvedKinds: Set<String> = []

    // MARK: Decoded content

    var items: [Item] = []
    var itemsByID: [ItemID: Item] = [:]
    var itemPaths: [ItemID: JSONPath] = [:]
    var worldID: String?
    var title: String?
    var introduction = ""
    /// The language `world.json` names, if it names one.
    var worldLanguage: String?
    var locations: [Location] = []
    var locationPaths: [LocationID: JSONPath] = [:]
    var startingPlayer: Player?
    var startPath = JSONPath.root.key("start")
    var goal: GameGoal?
    var goalPath = JSONPath.root.key("goal")
    var npcs: [NPC] = []
    var npcFiles: [NPCID: String] = [:]
    /// Categories NPCs sell, to check against their stock once the whole pack is read.
    var stockChecks:
        [(file: String, rank: Int, path: JSONPath, category: String, inventory: Inventory, neverSells: Set<ItemID>)] =
            []
    var counts = ContentCounts()
    var quests: [Quest] = []

    // MARK: Scripting, checked once the whole pack is read

    /// Where a flag or counter is tested, or a `flagSet` beat waits for a flag.
    struct NameUse {
        var file: String
        var rank: Int
        var path: JSONPath
        var name: String
        var text: String
    }
    /// Flags tested by conditions (`flag NAME`) and awaited by `flagSet` beats.
    var flagTests: [NameUse] = []
    /// Counters tested by conditions (`counter NAME ...`).
    var counterTests: [NameUse] = []
    /// Flags some effect sets.
    var flagsSet: Set<String> = []
    /// How many effects set each flag, beats' included (see `checkBeatsThatCannotFire()`).
    var flagSetCounts: [String: Int] = [:]
    /// Each NPC's `firstTalk` beats, to find those that can never fire.
    var firstTalkBeats: [FirstTalkBeat] = []
    /// Counters some effect changes.
    var countersChanged: Set<String> = []
    /// Dialogue rules' calls of the game's actions, checked against `actions.json` once it is read.
    var actionCalls: [ActionCallUse] = []

    init(displayPath: String) {
        self.displayPath = displayPath
    }

    /// `Content/` and `Content` both display as `Content`; `.` displays as nothing, so files show bare.
    static func normalizedDisplayPath(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "." ? "" : path
    }

    /// A file's displayed path.
    static func join(_ directory: String, _ relative: String) -> String {
        directory.isEmpty ? relative : directory + "/" + relative
    }

    // MARK: - Loading

    /// Loads a pack from its files' bytes.
    ///
    /// - Parameters:
    ///   - files: Each file's bytes by its path inside the pack.
    ///   - unreadable: Files (or the `npcs` folder) that are there but could not be read, with why; each is
    ///     reported as an error on its own file, and references to what it would define are not checked.
    /// - Returns: The pack if it has no errors, and every diagnostic.
    mutating func load(_ files: [String: [UInt8]], unreadable: [String: ContentFileError] = [:]) -> ContentLoadResult {
        let npcPrefix = ContentPack.npcsDirectoryName + "/"
        let npcFileNames = Set(files.keys).union(unreadable.keys).filter {
            $0.hasPrefix(npcPrefix) && $0.hasSuffix(".json")
        }.sorted()
        let others = files.keys.filter {
            $0 != ContentPack.worldFileName && $0 != ContentPack.itemsFileName
                && $0 != ContentPack.lexiconFileName && $0 != ContentPack.actionsFileName && !$0.hasPrefix(npcPrefix)
                && !$0.hasPrefix(ContentPack.schemaDirectoryName + "/") && $0.hasSuffix(".json")
        }.sorted()

        // Pass 1: parse.
        var parsed: [String: JSONValue] = [:]
        let ordered = [ContentPack.worldFileName, ContentPack.itemsFileName] + npcFileNames
        for (rank, name) in ordered.enumerated() {
            select(name, rank: rank)
            if let problem = unreadable[name] {
                error(.root, problem.problem, hint: problem.hint)
                continue
            }
            guard let bytes = files[name] else {
                let hint =
                    name == ContentPack.worldFileName
                    ? "every pack needs world.json with its locations, the player's start and the goal"
                    : "every pack needs items.json with the item catalog"
                error(.root, "file not found", hint: hint)
                continue
            }
            parsed[name] = parse(bytes)
        }
        if let problem = unreadable[ContentPack.npcsDirectoryName] {
            // Ranked with the NPC files, before them: the folder holds them.
            select(ContentPack.npcsDirectoryName, rank: 2)
            error(.root, problem.problem, hint: problem.hint)
            unresolvedKinds.insert("NPC")
        }
        let lexiconRank = ordered.count
        if files[ContentPack.lexiconFileName] != nil || unreadable[ContentPack.lexiconFileName] != nil {
            select(ContentPack.lexiconFileName, rank: lexiconRank)
            if let problem = unreadable[ContentPack.lexiconFileName] {
                error(.root, problem.problem, hint: problem.hint)
            } else if let bytes = files[ContentPack.lexiconFileName] {
                parsed[ContentPack.lexiconFileName] = parse(bytes)
            }
        }
        let actionsRank = lexiconRank + 1
        if files[ContentPack.actionsFileName] != nil || unreadable[ContentPack.actionsFileName] != nil {
            select(ContentPack.actionsFileName, rank: actionsRank)
            if let problem = unreadable[ContentPack.actionsFileName] {
                error(.root, problem.problem, hint: problem.hint)
                unresolvedKinds.insert("action")
            } else if let bytes = files[ContentPack.actionsFileName] {
                parsed[ContentPack.actionsFileName] = parse(bytes)
                if parsed[ContentPack.actionsFileName] == nil { unresolvedKinds.insert("action") }
            }
        }
        for (offset, name) in others.enumerated() {
            select(name, rank: actionsRank + 1 + offset)
            warning(
                .root, "not a file the loader reads, ignored",
                hint: "a pack is world.json, items.json, lexicon.json, actions.json, npcs/<id>.json and schema/")
        }

        // Pass 2: collect ids, so that references resolve whatever the file order.
        collectIDs(
            world: parsed[ContentPack.worldFileName], items: parsed[ContentPack.itemsFileName],
            npcs: npcFileNames.compactMap { parsed[$0] })
        if npcFileNames.contains(where: { parsed[$0] == nil }) { unresolvedKinds.insert("NPC") }
        collectActionIDs(parsed[ContentPack.actionsFileName])

        // Pass 3: decode with references.
        select(ContentPack.itemsFileName, rank: 1)
        if let value = parsed[ContentPack.itemsFileName] { decodeItems(value) }
        select(ContentPack.worldFileName, rank: 0)
        if let value = parsed[ContentPack.worldFileName] { decodeWorld(value) }
        for (offset, name) in npcFileNames.enumerated() {
            select(name, rank: 2 + offset)
            if let value = parsed[name] { decodeNPC(value, fileName: name) }
        }
        var actions: [GameAction] = []
        if let value = parsed[ContentPack.actionsFileName] {
            select(ContentPack.actionsFileName, rank: actionsRank)
            actions = decodeActions(value)
            checkActionCalls(actions)
        }

        var lexicon = Lexicon.english
        if let value = parsed[ContentPack.lexiconFileName] {
            select(ContentPack.lexiconFileName, rank: lexiconRank)
            if let decoded = decodeLexicon(value) {
                lexicon = decoded
                if case .object(let object) = value, case .object(let categories)? = object["categories"] {
                    checkLexiconCategories(lexicon, explicit: Set(categories.keys))
                }
            }
        } else if let language = worldLanguage {
            select(ContentPack.worldFileName, rank: 0)
            lexicon = builtInLexicon(forWorld: language) ?? lexicon
        }
        if parsed[ContentPack.lexiconFileName] != nil, let language = worldLanguage {
            checkWorldLanguage(language, lexicon: lexicon)
        }
        checkNPCLanguages(packLanguage: lexicon.language, npcFileNames: npcFileNames)

        // Pass 4: the pack as a whole, once every part of it could be read (otherwise its warnings would only
        // echo the errors).
        if !found.contains(where: { $0.diagnostic.severity == .error }) { checkPack(lexicon: lexicon) }

        let diagnostics = found.sorted {
            ($0.diagnostic.severity, $0.rank, $0.order) < ($1.diagnostic.severity, $1.rank, $1.order)
        }.map(\.diagnostic)
        var pack: ContentPack?
        if !diagnostics.contains(where: { $0.severity == .error }), let worldID, let title, let goal,
            let startingPlayer
        {
            var hash = ContentHash.empty
            for name in parsed.keys.sorted() {
                hash = hash.adding(name).adding(parsed[name]!.jsonString(.sortedKeys))
            }
            let world = World(
                id: worldID, title: title, introduction: introduction, locations: locations, items: items, npcs: npcs,
                goal: goal, quests: quests, lexicon: lexicon, actions: actions, contentHash: hash)
            // The catalog's name index is built with the pack, not at the first conversation: every copy of the
            // world (the game's state) shares it.
            _ = world.itemNames
            pack = ContentPack(world: world, startingPlayer: startingPlayer)
        }
        return ContentLoadResult(pack: pack, diagnostics: diagnostics, counts: counts, displayPath: displayPath)
    }

    /// Makes `name` the file that diagnostics are reported against.
    mutating func select(_ name: String, rank: Int) {
        file = Self.join(displayPath, name)
        fileRank = rank
    }

    // MARK: - Reporting

    /// How many errors were reported so far.
    var errorCount: Int { found.lazy.filter { $0.diagnostic.severity == .error }.count }

    mutating func report(
        _ severity: ContentDiagnostic.Severity, _ path: JSONPath, _ message: String, hint: String?, line: Int? = nil,
        column: Int? = nil
    ) {
        let diagnostic = ContentDiagnostic(
            severity, file: file, path: path.description, message: message, hint: hint, line: line, column: column)
        found.append((fileRank, found.count, diagnostic))
    }

    // MARK: - First pass

    mutating func collectIDs(world: JSONValue?, items: JSONValue?, npcs: [JSONValue]) {
        if items?["items"]?.arrayValue == nil { unresolvedKinds.insert("item") }
        if world?["locations"]?.arrayValue == nil { unresolvedKinds.insert("location") }
        for item in items?["items"]?.arrayValue ?? [] {
            if let id = item["id"]?.stringValue { itemIDs.insert(id) }
            if let category = item["category"]?.stringValue { categories.insert(category) }
        }
        for location in world?["locations"]?.arrayValue ?? [] {
            if let id = location["id"]?.stringValue { locationIDs.insert(id) }
        }
        if world == nil || (world?["quests"] != nil && world?["quests"]?.arrayValue == nil) {
            unresolvedKinds.insert("quest")
        }
        for quest in world?["quests"]?.arrayValue ?? [] {
            guard let id = quest["id"]?.stringValue else { continue }
            let stages = quest["stages"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if questStages[id] == nil { questStages[id] = stages }
        }
        for npc in npcs {
            if let id = npc["id"]?.stringValue { npcIDs.insert(id) }
        }
    }
}
