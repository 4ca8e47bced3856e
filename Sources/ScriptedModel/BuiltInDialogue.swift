import GameWorld

/// The scripted model's own plain lines, tried after the NPC's rules, in a neutral voice.
///
/// They come in two tiers: first one rule per intent whose replies mention what is in play (`{item}`, `{price}`,
/// `{stock}`...), then one rule per intent whose replies need no placeholder at all, said only when nothing in play
/// can fill the first tier's. So every NPC always has something to say, and says the most it can.
enum BuiltInDialogue {
    /// The built-in rules, in the order they are tried.
    static let rules = DialogueRules(
        rules: informative + plain + [rule("builtin_last_resort", DialogueIntent.allCases, ["Hm."])])

    /// What the model says when no rule has words for a turn: the last rule's first reply, so that an NPC is never
    /// silent.
    static var lastWords: String { rules.rules.last?.replies.first ?? "Hm." }

    /// Replies that mention what is in play.
    private static let informative: [DialogueRule] = [
        rule("builtin_greet", [.greet], ["Hello, {player}. What can I do for you?", "Good day to you, {player}."]),
        rule(
            "builtin_greet_again", [.greetAgain], [],
            [
                .offerPending: [
                    "Hello again. My offer stands: {offer}", "Hello again. The {item} is still yours for {price} gold.",
                ]
            ]),
        rule("builtin_returning_item", [.returning], ["Welcome back. Is that a {item} you have there?"], item: .any),
        rule(
            "builtin_returning", [.returning], ["Welcome back, {player}."],
            [.offerPending: ["Welcome back. Have you thought about my offer? {offer}"]]),
        rule(
            "builtin_farewell", [.farewell], ["Goodbye, {player}."],
            [.offerPending: ["Goodbye. My offer for the {item} stands if you change your mind."]]),
        rule(
            "builtin_ask_stock", [.askStock], [],
            [.listed: ["I have {stock}.", "Here's what I have: {stock}."]]),
        rule(
            "builtin_ask_price", [.askPrice], [],
            [
                .priced: ["The {item} is {price} gold.", "{price} gold for the {item}."],
                .pricedSeveral: ["That comes to {total}."],
                .missing: ["I don't have any {item}."], .listed: ["I have {stock}."],
                .ambiguous: ["Which do you mean: {choices}?"],
            ]),
        rule(
            "builtin_buy", [.buy], [],
            [
                .pending: ["{summary} Say accept if you want it.", "{quantity} {item} for {price} gold. Say accept."],
                .refused: ["I can't do that. {reasons}"], .missing: ["I don't have any {item} to sell."],
                .ambiguous: ["Which do you mean: {choices}?"],
            ]),
        // Asked back when the model is not sure the player asked to buy; only replies written for `clarify` say it.
        rule(
            "builtin_clarify_several", [.buy], [],
            [.clarify: ["That comes to {total}. Do you want them, or were you only asking?"]]),
        rule(
            "builtin_clarify", [.buy], [],
            [.clarify: ["The {item} is {price} gold. Do you want to buy it, or were you only asking?"]]),
        rule(
            "builtin_haggle", [.haggle], [],
            [
                .pending: ["Very well. {summary}", "All right: {price} gold for the {item}."],
                .refused: ["No. {reasons}"], .missing: ["I don't have any {item}."],
                .ambiguous: ["Which do you mean: {choices}?"],
            ]),
        rule(
            "builtin_sell", [.sell], [],
            [
                .pending: ["{summary} Say accept if that suits you.", "I'll give you {price} gold for the {item}."],
                .refused: ["No deal. {reasons}"], .appraised: ["I'd pay this much: {appraisal}."],
                .notCarried: ["You don't have a {item}."], .notWanted: ["I don't buy {item}."],
                .ambiguous: ["Which do you mean: {choices}?"],
            ]),
        rule(
            "builtin_offer_gift", [.offerGift], [],
            [
                .accepted: ["Thank you for the {item}."], .refused: ["I can't take that. {reasons}"],
                .ambiguous: ["Which do you mean: {choices}?"],
            ]),
        rule("builtin_introduce", [.introduce], ["I am {npc}.", "{npc}, at your service."]),
        rule(
            "builtin_recall", [.recall], [],
            [
                .remembered: ["{memory}", "Let me think. {memory}"],
                .forgotten: ["I don't recall anything like that."],
            ]),
        rule(
            "builtin_unknown", [.unknown], [],
            [.offerPending: ["I don't follow. Are you still interested in the {item}?"]]),
        rule("builtin_gift", [.gift], ["Thank you for the {item}."]),
        rule("builtin_offer_accepted", [.offerAccepted], ["A pleasure doing business. Enjoy the {item}."]),
    ]

    /// Replies that need no placeholder.
    private static let plain: [DialogueRule] = [
        rule(
            "builtin_plain_greet", [.greet],
            ["Hello there. What can I do for you?", "Good day. What brings you here?"]),
        rule(
            "builtin_plain_greet_again", [.greetAgain],
            ["Hello again. What else can I do for you?", "Yes, hello. What do you need?"]),
        rule("builtin_plain_returning", [.returning], ["Back again? What can I do for you?"]),
        rule("builtin_plain_farewell", [.farewell], ["Farewell.", "Safe travels."]),
        rule("builtin_plain_thanks", [.thanks], ["You're welcome.", "Glad to help."]),
        rule(
            "builtin_plain_trade", [.askStock, .askPrice, .buy, .haggle, .sell, .offerGift], ["Let me see."],
            [
                .listed: ["Have a look."], .priced: ["The {item} is {price} gold."],
                .pricedSeveral: ["That comes to {total}."],
                .empty: ["I have nothing to sell right now."],
                .missing: ["I don't have that."], .ambiguous: ["Which one do you mean?"],
                .noItem: ["Which item do you mean?"],
                .pending: ["I'll make you an offer. Say accept if it suits you."], .refused: ["That won't work."],
                .clarify: ["Do you want to buy it, or were you only asking?"],
                .appraised: ["I might buy something of yours."], .notCarried: ["You don't have that."],
                .notWanted: ["I don't buy that."], .accepted: ["Thank you."], .given: ["Here you are."],
                .unavailable: ["I'm not trading."],
            ]),
        rule(
            "builtin_plain_yes", [.yes], ["Good.", "Very well."],
            [.offerPending: ["Then say accept, and it's done.", "Good. Just say accept."]]),
        rule(
            "builtin_plain_no", [.no], ["As you like.", "Very well."],
            [.offerPending: ["As you like. Say decline if you don't want it."]]),
        rule("builtin_plain_small_talk", [.smallTalk], ["Can't complain.", "Well enough, thank you."]),
        rule("builtin_plain_rumors", [.rumors], ["I haven't heard anything worth repeating."]),
        rule("builtin_plain_recall", [.recall], ["I don't recall.", "My memory fails me."]),
        rule("builtin_plain_unknown", [.unknown], ["I don't follow.", "Sorry, I don't understand."]),
        rule("builtin_plain_gift", [.gift], ["Thank you."]),
        rule("builtin_plain_offer_accepted", [.offerAccepted], ["A pleasure doing business."]),
        rule("builtin_plain_offer_declined", [.offerDeclined], ["As you wish.", "Maybe another time."]),
        rule("builtin_plain_game_event", [.gameEvent], ["Hm.", "I see."]),
    ]

    private static func rule(
        _ id: String, _ intents: [DialogueIntent], _ replies: [String], _ outcomes: [DialogueOutcome: [String]] = [:],
        item: DialogueItemCondition? = nil
    ) -> DialogueRule {
        DialogueRule(
            id: id, when: DialogueCondition(intents: intents, item: item), replies: replies, outcomes: outcomes)
    }
}
