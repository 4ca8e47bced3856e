import GameWorld

/// The scripted model's own plain lines, tried after the NPC's rules, in a neutral voice and in the NPC's language.
///
/// They come in two tiers: first one rule per intent whose replies mention what is in play (`{item}`, `{price}`,
/// `{stock}`...), then one rule per intent whose replies need no placeholder at all, said only when nothing in play
/// can fill the first tier's. So every NPC always has something to say, and says the most it can.
///
/// The rules (their ids, intents and order) are written here; their replies are the lexicon's `lines` by rule id
/// (`Lexicon.lines`, English in `lexicon.en.json`, German in `lexicon.de.json`). A lexicon without a rule's lines
/// gets the English ones. A new built-in rule is a line below and its lines in the built-in lexicons.
enum BuiltInDialogue {
    /// The built-in rules with their English lines.
    static let rules = rules(for: .english)

    /// The built-in rules with a lexicon's lines, in the order they are tried.
    ///
    /// - Parameter lexicon: The NPC's lexicon.
    /// - Returns: The rules.
    static func rules(for lexicon: Lexicon) -> DialogueRules {
        DialogueRules(
            rules: (informative + plain + [rule("builtin_last_resort", DialogueIntent.allCases)]).map { rule in
                var rule = rule
                let lines = lexicon.lines[rule.id] ?? Lexicon.english.lines[rule.id] ?? Lexicon.Lines()
                rule.replies = lines.replies
                rule.outcomes = lines.outcomes
                return rule
            })
    }

    /// Rules whose replies mention what is in play.
    private static let informative: [DialogueRule] = [
        rule("builtin_greet", [.greet]),
        rule("builtin_greet_again", [.greetAgain]),
        rule("builtin_returning_item", [.returning], item: .any),
        rule("builtin_returning", [.returning]),
        rule("builtin_farewell", [.farewell]),
        rule("builtin_ask_stock", [.askStock]),
        rule("builtin_ask_price", [.askPrice]),
        rule("builtin_buy", [.buy]),
        // Asked back when the model is not sure the player asked to buy; only replies written for `clarify` say it.
        rule("builtin_clarify_several", [.buy]),
        rule("builtin_clarify", [.buy]),
        rule("builtin_haggle", [.haggle]),
        rule("builtin_sell", [.sell]),
        rule("builtin_offer_gift", [.offerGift]),
        rule("builtin_introduce", [.introduce]),
        rule("builtin_recall", [.recall]),
        rule("builtin_unknown", [.unknown]),
        rule("builtin_gift", [.gift]),
        rule("builtin_offer_accepted", [.offerAccepted]),
    ]

    /// Rules whose replies need no placeholder.
    private static let plain: [DialogueRule] = [
        rule("builtin_plain_greet", [.greet]),
        rule("builtin_plain_greet_again", [.greetAgain]),
        rule("builtin_plain_returning", [.returning]),
        rule("builtin_plain_farewell", [.farewell]),
        rule("builtin_plain_thanks", [.thanks]),
        rule("builtin_plain_trade", [.askStock, .askPrice, .buy, .haggle, .sell, .offerGift]),
        rule("builtin_plain_yes", [.yes]),
        rule("builtin_plain_no", [.no]),
        rule("builtin_plain_small_talk", [.smallTalk]),
        rule("builtin_plain_rumors", [.rumors]),
        rule("builtin_plain_recall", [.recall]),
        rule("builtin_plain_unknown", [.unknown]),
        rule("builtin_plain_gift", [.gift]),
        rule("builtin_plain_offer_accepted", [.offerAccepted]),
        rule("builtin_plain_offer_declined", [.offerDeclined]),
        rule("builtin_plain_game_event", [.gameEvent]),
    ]

    private static func rule(
        _ id: String, _ intents: [DialogueIntent], item: DialogueItemCondition? = nil
    ) -> DialogueRule {
        DialogueRule(id: id, when: DialogueCondition(intents: intents, item: item))
    }
}
