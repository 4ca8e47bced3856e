import GameWorld
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// What a test plan's `player` sets up: its inventory is written like every other inventory, in either form, and a
/// bad one is an error naming the plan's file and the JSON path.
@Suite struct ConversationTestPlanTests {
    func plan(inventory: String) throws(ConversationTest.PlanError) -> ConversationTest {
        try ConversationTest(
            json: #"{"name": "p", "player": {"inventory": "# + inventory + #"}, "steps": [{"do": "look"}]}"#,
            file: "tests/p.json")
    }

    @Test(arguments: [
        #"{"bread": 2, "lantern": 1}"#, #"[{"item": "bread", "quantity": 2}, {"item": "lantern"}]"#,
    ])
    func bothFormsGiveThePlayersInventory(inventory: String) throws {
        let pack = try shippedPack()
        let plan = try plan(inventory: inventory)
        #expect(plan.problems(in: pack) == [])
        // The plan's inventory replaces the pack's start.
        #expect(plan.startingState(in: pack).player.inventory == ["bread": 2, "lantern": 1])
    }

    @Test(arguments: [
        (#"{"bread": 0}"#, "tests/p.json: $.player.inventory.bread: quantity must be from 1 to 10000, found 0"),
        (
            #"[{"item": "bread", "quantity": -2}]"#,
            "tests/p.json: $.player.inventory[0].quantity: quantity must be from 1 to 10000, found -2"
        ),
        (#"[{"item": 3}]"#, "tests/p.json: $.player.inventory[0].item: expected a string, found number 3"),
        (#"{"bread": "two"}"#, #"tests/p.json: $.player.inventory.bread: expected a whole number, found string "two""#),
        (
            #""bread""#,
            #"tests/p.json: $.player.inventory: expected an inventory (an object or an array), found string "bread" (write {"bread": 2} or [{"item": "bread", "quantity": 2}])"#
        ),
        (
            #"[{"item": "bread", "quantitty": 2}]"#,
            #"tests/p.json: $.player.inventory[0].quantitty: unknown field "quantitty" (did you mean "quantity"?)"#
        ),
    ])
    func aBadInventoryIsAPlanError(inventory: String, error: String) {
        #expect {
            _ = try plan(inventory: inventory)
        } throws: { thrown in
            (thrown as? ConversationTest.PlanError)?.description == error
        }
    }

    @Test(arguments: [
        (
            #"{"lantren": 1}"#,
            #"tests/p.json: $.player.inventory.lantren: unknown item "lantren" (did you mean "lantern"?)"#
        ),
        (
            #"[{"item": "lantren"}]"#,
            #"tests/p.json: $.player.inventory[0].item: unknown item "lantren" (did you mean "lantern"?)"#
        ),
    ])
    func anUnknownItemIsAProblemInThePackInEitherForm(inventory: String, problem: String) throws {
        let plan = try plan(inventory: inventory)
        #expect(try plan.problems(in: shippedPack()).map(\.description) == [problem])
    }
}
