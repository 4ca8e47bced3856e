import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - npcs/<id>.json

extension ContentLoader {
    /// The fields an NPC file may have. Later features add theirs here (and to `NPC` and the schema).
    static let npcFields = [
        "id", "name", "aliases", "description", "persona", "location", "gold", "inventory", "trade", "dialogue",
        "context", "beats", "knowledge", "goals", "voice", "language", "speech",
    ]
    static let tradeFields = [
        "trades", "sells", "buys", "sellMarkup", "buyBackRate", "minimumPriceRatio", "neverSells",
    ]

    mutating func decodeNPC(_ value: JSONValue, fileName: String) {
        guard let object = object(value, at: .root, what: "an NPC") else { return }
        counts.npcs += 1
        let path = JSONPath.root
        let id = identifier("id", in: object, at: path, required: true, kind: "NPC")
        let name = string("name", in: object, at: path, required: true)
        let aliases = strings("aliases", in: object, at: path).map(\.0)
        let description = string("description", in: object, at: path, required: false) ?? ""
        let persona = string("persona", in: object, at: path, required: true)
        let location = reference("location", in: object, at: path, required: true, kind: "location", known: locationIDs)
        let gold =
            object["gold"] == nil ? 0 : integer("gold", in: object, at: path, required: false, range: Limits.gold)
        let inventory = inventory("inventory", in: object, at: path)
        var trade: TradePolicy? = .doesNotTrade
        if let tradeObject = self.object("trade", in: object, at: path, required: false, what: "a trade policy") {
            trade = decodeTrade(tradeObject, at: path.key("trade"), inventory: inventory)
        } else if object["trade"] != nil {
            trade = nil
        }
        let scope = scriptScope(of: object, inventory: inventory, trade: trade)
        var dialogue: DialogueRules? = DialogueRules.none
        if let dialogueObject = self.object("dialogue", in: object, at: path, required: false, what: "dialogue rules") {
            dialogue = decodeDialogue(dialogueObject, at: path.key("dialogue"), scope: scope)
        } else if object["dialogue"] != nil {
            dialogue = nil
        }
        let contextPolicy = decodeContextPolicy(object, at: path)
        let voice = decodeVoice(object, at: path)
        let speech = decodeSpeech(object, at: path)
        let beats = decodeBeats(object, at: path, scope: scope)
        let knowledge = decodeKnowledge("knowledge", in: object, at: path, scope: scope)
        let goals = decodeKnowledge("goals", in: object, at: path, scope: scope)
        let language = languageTag("language", in: object, at: path)
        unknownFields(object, at: path, known: Self.npcFields)

        guard let id else { return }
        let npcID = NPCID(id)
        let stem = String(fileName.dropFirst(ContentPack.npcsDirectoryName.count + 1).dropLast(".json".count))
        if let first = npcFiles[npcID] {
            error(path.key("id"), "duplicate NPC id \"\(id)\"", hint: "also defined in \(first)")
            return
        }
        npcFiles[npcID] = file
        if stem != id {
            warning(
                path.key("id"), "the id \"\(id)\" differs from the file name \"\(stem).json\"",
                hint: "name the file \(id).json")
        }
        guard let name, let persona, let location, let gold, let inventory, let trade, let dialogue, let contextPolicy,
            let beats, let knowledge, let goals, let voice, let speech
        else { return }
        npcs.append(
            NPC(
                id: npcID, name: name, aliases: aliases, description: description, persona: persona,
                location: LocationID(location), inventory: inventory, gold: gold, trade: trade, dialogue: dialogue,
                contextPolicy: contextPolicy, beats: beats, knowledge: knowledge, goals: goals, voice: voice,
                language: language, speech: speech.value, source: value))
    }

    /// `"speech": {"voice": "en-gb", "pitch": 40, "rate": 160, "variant": "f3"}`, each field optional; `.init(nil)`
    /// (no block: the voice derived from the id) when left out, and `nil` on an error.
    mutating func decodeSpeech(_ object: JSONObject, at path: JSONPath) -> SpeechField? {
        guard object["speech"] != nil else { return SpeechField(value: nil) }
        guard let speech = self.object("speech", in: object, at: path, required: false, what: "a speech block") else {
            return nil
        }
        let speechPath = path.key("speech")
        unknownFields(speech, at: speechPath, known: ["voice", "pitch", "rate", "variant"])
        var valid = true
        let voice = string("voice", in: speech, at: speechPath, required: false)
        if speech["voice"] != nil && voice.map(Self.isSpeechName) != true {
            valid = false
            if voice != nil {
                error(
                    speechPath.key("voice"), "a speech voice must be an espeak-ng voice name",
                    hint: "for example \"en-gb\" or \"de\"; `espeak-ng --voices` lists them")
            }
        }
        let variant = string("variant", in: speech, at: speechPath, required: false)
        if speech["variant"] != nil && variant.map(Self.isSpeechName) != true {
            valid = false
            if variant != nil {
                error(
                    speechPath.key("variant"), "a speech variant must be an espeak-ng variant name",
                    hint: "for example \"f3\" or \"m2\"; `espeak-ng --voices=variant` lists them")
            }
        }
        var pitch: Int?
        if speech["pitch"] != nil {
            pitch = integer("pitch", in: speech, at: speechPath, required: false, range: Limits.speechPitch)
            if pitch == nil { valid = false }
        }
        var rate: Int?
        if speech["rate"] != nil {
            rate = integer("rate", in: speech, at: speechPath, required: false, range: Limits.speechRate)
            if rate == nil { valid = false }
        }
        guard valid else { return nil }
        return SpeechField(value: NPCSpeech(voice: voice, pitch: pitch, rate: rate, variant: variant))
    }

    /// An NPC's `speech` as read: `value` is `nil` when the file has no block (the loader's `nil` is an error).
    struct SpeechField {
        /// The block, or `nil` when there is none.
        var value: NPCSpeech?
    }

    /// Whether `name` may name an espeak-ng voice or variant: letters, digits, `-` and `_`, 1 to 40 of them (no `+`,
    /// which joins a voice and its variant, and no path).
    static func isSpeechName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 40
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
            }
    }

    /// `"voice": {"sentences": N}`; the game's defaults when left out. `nil` on an error.
    mutating func decodeVoice(_ object: JSONObject, at path: JSONPath) -> NPCVoice? {
        guard object["voice"] != nil else { return .default }
        guard let voice = self.object("voice", in: object, at: path, required: false, what: "a voice") else {
            return nil
        }
        let voicePath = path.key("voice")
        unknownFields(voice, at: voicePath, known: ["sentences"])
        guard voice["sentences"] != nil else { return .default }
        guard let sentences = integer("sentences", in: voice, at: voicePath, required: false, range: Limits.sentences)
        else { return nil }
        return NPCVoice(sentences: sentences)
    }

    /// `"context": {"policy": "summary" | "firstAndLast"}`; the summary policy when left out. `nil` on an error.
    mutating func decodeContextPolicy(_ object: JSONObject, at path: JSONPath) -> ContextPolicy? {
        guard object["context"] != nil else { return .summary }
        guard let context = self.object("context", in: object, at: path, required: false, what: "a context policy")
        else { return nil }
        let contextPath = path.key("context")
        unknownFields(context, at: contextPath, known: ["policy"])
        guard let name = string("policy", in: context, at: contextPath, required: false) else {
            return context["policy"] == nil ? .summary : nil
        }
        guard let policy = ContextPolicy(rawValue: name) else {
            let names = ContextPolicy.allCases.map(\.rawValue)
            error(
                contextPath.key("policy"), "unknown context policy \"\(name)\"",
                hint: Suggestions.didYouMean(name, in: names)
                    ?? "one of: \(names.joined(separator: ", "))")
            return nil
        }
        return policy
    }

    /// Decodes a trade policy. Whether the NPC has stock for each category it sells is checked later, with the
    /// whole pack (`checkStock()`).
    mutating func decodeTrade(_ object: JSONObject, at path: JSONPath, inventory: Inventory?) -> TradePolicy? {
        var policy = TradePolicy()
        var valid = true
        if object["trades"] != nil {
            if let trades = bool("trades", in: object, at: path) { policy.trades = trades } else { valid = false }
        }
        let sells = strings("sells", in: object, at: path)
        let buys = strings("buys", in: object, at: path)
        for (category, categoryPath) in sells + buys
        where !categories.contains(category) && !unresolvedKinds.contains("item") {
            let hint =
                Suggestions.didYouMean(category, in: categories.sorted())
                ?? "no item in items.json has this category"
            warning(categoryPath, "no item has the category \"\(category)\"", hint: hint)
        }
        policy.sells = Set(sells.map(\.0))
        policy.buys = Set(buys.map(\.0))

        func readRatio(
            _ loader: inout ContentLoader, _ key: String, _ range: ClosedRange<Int>, _ hint: String
        ) -> PriceRatio?? {
            guard object[key] != nil else { return .some(nil) }
            guard let ratio = loader.ratio(key, in: object, at: path, range: range, hint: hint) else { return nil }
            return .some(ratio)
        }
        let markup = readRatio(
            &self, "sellMarkup", Limits.sellMarkup,
            "an NPC asks at least an item's value; let the player haggle with minimumPriceRatio")
        let buyBack = readRatio(&self, "buyBackRate", Limits.buyBackRate, "an NPC pays at most an item's value")
        let minimum = readRatio(&self, "minimumPriceRatio", Limits.minimumPriceRatio, "a ratio of the item's value")
        if case .some(let value?) = markup { policy.sellMarkup = value }
        if case .some(let value?) = buyBack { policy.buyBackRate = value }
        if case .some(let value?) = minimum { policy.minimumPriceRatio = value }
        if markup == nil || buyBack == nil || minimum == nil { valid = false }

        var neverSells: Set<ItemID> = []
        for (item, itemPath) in strings("neverSells", in: object, at: path) {
            if reference(item, at: itemPath, kind: "item", known: itemIDs) {
                neverSells.insert(ItemID(item))
            } else {
                valid = false
            }
        }
        policy.neverSells = neverSells
        unknownFields(object, at: path, known: Self.tradeFields)
        guard valid else { return nil }

        if !policy.trades {
            let ignored = Self.tradeFields.filter { $0 != "trades" && object[$0] != nil }
            if !ignored.isEmpty {
                warning(
                    path,
                    "\"trades\" is false, so \(ignored.map { "\"\($0)\"" }.joined(separator: ", ")) \(ignored.count == 1 ? "is" : "are") ignored",
                    hint: "remove \(ignored.count == 1 ? "it" : "them"), or set \"trades\" to true")
            }
            return policy
        }
        if policy.minimumPriceRatio > policy.sellMarkup {
            error(
                path.key("minimumPriceRatio"),
                "minimumPriceRatio \(policy.minimumPriceRatio) is above sellMarkup \(policy.sellMarkup)",
                hint: "the NPC would refuse its own asking price; lower minimumPriceRatio or raise sellMarkup")
            return nil
        }
        if !policy.sells.isEmpty, policy.buyBackRate > policy.minimumPriceRatio {
            warning(
                path.key("buyBackRate"),
                "buyBackRate \(policy.buyBackRate) is above minimumPriceRatio \(policy.minimumPriceRatio)",
                hint: "a player could buy at the lowest price and sell back at a profit forever")
        }
        for (category, categoryPath) in sells where categories.contains(category) {
            stockChecks.append((file, fileRank, categoryPath, category, inventory ?? Inventory(), policy.neverSells))
        }
        return policy
    }
}
