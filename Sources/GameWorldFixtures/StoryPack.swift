import ContentPacks
import Foundation
import GameWorld

/// A small pack with a quest, flags, counters, beats, knowledge and goals, loaded through the content loader.
///
/// The player (Kit, 30 gold, a lantern and 3 loaves) starts in the square with Mira, who carries a compass and
/// bread and sells food; Oona the guard stands in the yard. The quest `gem` goes unstarted, asked, found, returned.
package enum StoryPack {
    package static let files: [String: String] = [
        "world.json": """
        { "id": "story", "title": "Story Town",
          "start": { "name": "Kit", "location": "square", "gold": 30,
                     "inventory": [{ "item": "lantern" }, { "item": "bread", "quantity": 3 }] },
          "locations": [
            { "id": "square", "name": "Square", "description": "A square.", "exits": [{ "direction": "north", "to": "yard" }] },
            { "id": "yard", "name": "Yard", "description": "A yard.", "exits": [{ "direction": "south", "to": "square" }],
              "items": [{ "item": "gem" }] } ],
          "quests": [{ "id": "gem", "name": "The Lost Gem", "stages": ["unstarted", "asked", "found", "returned"] }],
          "goal": { "description": "Return the gem.", "requirements": [{ "type": "npcHasItem", "npc": "mira", "item": "gem" }] } }
        """,
        "items.json": """
        { "items": [
          { "id": "lantern", "name": "Brass Lantern", "description": "A lamp.", "value": 20, "category": "tool" },
          { "id": "bread", "name": "Bread", "description": "A loaf.", "value": 2, "category": "food" },
          { "id": "compass", "name": "Compass", "description": "It points north.", "value": 30, "category": "curio" },
          { "id": "gem", "name": "Gem", "description": "A gem.", "value": 90, "category": "curio", "tags": ["quest"] } ] }
        """,
        "npcs/mira.json": """
        { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "square", "gold": 50,
          "inventory": [{ "item": "compass" }, { "item": "bread", "quantity": 4 }],
          "trade": { "sells": ["food"], "buys": ["food"] },
          "beats": [
            { "id": "hello", "on": "firstTalk", "mode": "instead", "lines": ["Welcome, {player}, to {location}!"],
              "effects": [{ "set": "met_mira" }, { "quest": "gem", "stage": "asked" }] },
            { "id": "count", "on": "arrive", "effects": [{ "counter": "visits", "add": 1 }] },
            { "id": "regular", "on": "arrive", "when": "counter visits >= 2", "lines": ["You again!", "Back so soon?"] },
            { "id": "gem_home", "on": "itemGiven", "item": "gem", "mode": "instead", "once": true,
              "lines": ["My {item}! Take this, {player}."],
              "effects": [{ "quest": "gem", "stage": "returned" }, { "give": "compass" }, { "attitude": 40 },
                          { "set": "gem_returned" }] },
            { "id": "thanks", "on": "itemGiven", "effects": [{ "attitude": 5 }] },
            { "id": "deal", "on": "tradeAccepted", "item": "bread", "lines": ["Enjoy the {item}."] },
            { "id": "no_deal", "on": "tradeRefused", "lines": ["Suit yourself."] },
            { "id": "cheer", "on": "flagSet", "flag": "gem_returned", "lines": ["Hooray!"] }
          ],
          "knowledge": [
            { "id": "yard", "when": "quest gem >= asked", "text": "The gem was lost in the yard." },
            { "id": "friend", "when": "attitude >= 20", "text": "Kit is a friend." },
            { "id": "always", "text": "Bread is good." }
          ],
          "goals": [
            { "id": "find", "when": "quest gem < returned", "text": "Get the gem back." },
            { "id": "sell", "when": ["has bread", "gold >= 10"], "text": "Sell more bread." }
          ],
          "dialogue": {
            "synonyms": { "gem": ["gem", "jewel"] },
            "rules": [
              { "id": "gem_known", "when": { "keywords": ["@gem"], "if": "quest gem >= asked" },
                "replies": ["The gem is in the yard."], "effects": [{ "counter": "gem_talk", "add": 1 }] },
              { "id": "gem", "when": { "keywords": ["@gem"] }, "replies": ["What gem?"] },
              { "id": "talked", "when": { "if": "counter gem_talk >= 1 and topic gem" }, "replies": ["As I said."] }
            ]
          } }
        """,
        "npcs/oona.json": """
        { "id": "oona", "name": "Oona", "persona": "A guard.", "location": "yard", "gold": 5,
          "knowledge": [{ "id": "gem_news", "when": "flag gem_returned", "text": "Kit returned the gem." }] }
        """,
    ]

    package static let result = ContentPack.load(files: files, displayPath: "Story")

    /// The pack; the tests fail if it does not load.
    package static func pack() throws -> ContentPack { try result.get() }
}
