# Plays a conversation through `parley serve`, as a game would, and prints what it got.
#
# The player starts in Market Square with 14 gold, and Mira's Brass Lantern costs 20 at her lowest: so the player
# walks east to the smithy and sells the rusty sword to Brannoc, walks back west to Mira, asks the lantern's price,
# haggles, and accepts. After each trade the game's state must show it (the gold moved by the price, the items
# changed hands); at the end the lantern must be in the player's inventory, bought from Mira. Then the game is
# saved to a slot and loaded back into a second game, which must hold the lantern too.
#
#     godot3-server --path Examples/godot --url=http://127.0.0.1:8080     (or PARLEY_URL=http://...)
#
# Prints "game id: ID" once the game has started. Exits with 0 on success, 1 on any failure (a request refused, a
# step without the event it must bring, a trade that did not happen), 2 without a server URL.
extends Node

const ParleyClient = preload("res://parley_client.gd")

# The lines the player types, each with the type of event it must bring.
const STEPS = [
	["go east", "moved"],
	["talk to brannoc", "speechEnded"],
	["I want to sell my rusty sword", "offer"],
	["accept", "trade"],
	["go west", "moved"],
	["talk to mira", "speechEnded"],
	["how much is the lantern?", "speechEnded"],
	["would you take 15?", "offer"],
	["accept", "trade"],
]
# What the player must end up with, and from whom.
const ITEM := "lantern"
const MERCHANT := "mira"
# Where the game is saved, to be loaded back.
const SLOT := "godot-example"
# The longest the whole conversation may take, in seconds; then it fails.
const TIME_LIMIT := 60

var parley


func _ready() -> void:
	# First, so that it ends a run that a script error stopped: Godot reports those and goes on running.
	get_tree().create_timer(TIME_LIMIT).connect("timeout", self, "_on_time_limit")
	var url := _setting("url", "PARLEY_URL")
	if url == "":
		printerr("conversation: give the server's base URL, as `parley serve` prints it: --url=http://127.0.0.1:PORT "
			+ "after the Godot arguments, or PARLEY_URL.")
		get_tree().quit(2)
		return
	parley = ParleyClient.new(url, _setting("token", "PARLEY_TOKEN"))
	add_child(parley)
	var code = yield(_play(), "completed")
	if typeof(code) != TYPE_INT:
		code = 1    # A script error ended _play() early, and Godot has printed it.
	print("PASSED" if code == 0 else "FAILED")
	get_tree().quit(code)


func _on_time_limit() -> void:
	printerr("conversation: FAILED: not done within %d s; is the server answering?" % TIME_LIMIT)
	get_tree().quit(1)


# The conversation; returns the exit code.
func _play():
	var health = yield(parley.health(), "completed")
	if not health.ok:
		return _fail("health", health)
	print("Parley %s at %s" % [health.data.version, parley.base_url])

	var started = yield(parley.new_game(), "completed")
	if not started.ok:
		return _fail("new game", started)
	var game_id: String = started.data.id
	print("game id: " + game_id)
	_print_events(started.data.events)

	var bought := false
	for step in STEPS:
		var line: String = step[0]
		var before = null
		if step[1] == "trade":
			var state = yield(parley.get_state(game_id), "completed")
			if not state.ok:
				return _fail("state before '%s'" % line, state)
			before = state.data
		print("> " + line)
		var reply = yield(parley.send_input(game_id, line), "completed")
		if not reply.ok:
			return _fail("'%s'" % line, reply)
		var events: Array = reply.data.events
		_print_events(events)
		for event in events:
			if event.type == "problem":
				return _fail_with("'%s' brought a problem: %s" % [line, event.detail])
		var expected = _first(events, step[1])
		if expected == null:
			return _fail_with("'%s' brought no %s event" % [line, step[1]])
		if before != null:
			var state = yield(parley.get_state(game_id), "completed")
			if not state.ok:
				return _fail("state after '%s'" % line, state)
			var wrong := _check_trade(expected, before, state.data)
			if wrong != "":
				return _fail_with("the trade after '%s' is not in the game's state: %s" % [line, wrong])
			if expected.npc.id == MERCHANT and _quantity_in(expected.npcGives.items, ITEM) > 0:
				bought = true
				print("Bought %s from %s for %d gold: %d gold before, %d after." % [
					_items(expected.npcGives.items), expected.npc.name, int(expected.playerGives.gold),
					int(before.player.gold), int(state.data.player.gold)])

	var final = yield(parley.get_state(game_id), "completed")
	if not final.ok:
		return _fail("state", final)
	var player = final.data.player
	print("Player: %d gold, carries %s" % [int(player.gold), _items(player.inventory)])
	if not bought or _quantity_in(player.inventory, ITEM) == 0:
		return _fail_with("no %s bought from %s" % [ITEM, MERCHANT])

	var transcript = yield(parley.get_transcript(game_id, MERCHANT), "completed")
	if not transcript.ok:
		return _fail("transcript", transcript)
	var entries: Array = transcript.data.transcript.entries
	if entries.empty():
		return _fail_with("the transcript of the conversation with %s is empty" % MERCHANT)
	print("Transcript with %s: %d entries" % [MERCHANT, entries.size()])
	var feedback = yield(parley.get_feedback(game_id), "completed")
	if not feedback.ok:
		return _fail("feedback", feedback)
	print("Feedback reports: %d" % feedback.data.reports.size())

	var saved = yield(parley.save_game(game_id, SLOT), "completed")
	if not saved.ok:
		return _fail("save", saved)
	var saves = yield(parley.list_saves(), "completed")
	if not saves.ok:
		return _fail("saves", saves)
	var slots := []
	for save in saves.data.saves:
		slots.append(save.slot)
	if not SLOT in slots:
		return _fail_with("slot %s is not among the saves: %s" % [SLOT, slots])
	var loaded = yield(parley.load_game(SLOT), "completed")
	if not loaded.ok:
		return _fail("load", loaded)
	var copy = loaded.data.state.player
	if _quantity_in(copy.inventory, ITEM) == 0 or int(copy.gold) != int(player.gold):
		return _fail_with("slot %s loads another game: %d gold, %s" % [SLOT, int(copy.gold), _items(copy.inventory)])
	print("Saved to %s and loaded back as game %s: %d gold, %s" % [
		SLOT, loaded.data.id, int(copy.gold), _items(copy.inventory)])
	var deleted = yield(parley.delete_game(loaded.data.id), "completed")
	if not deleted.ok:
		return _fail("delete", deleted)

	var unknown = yield(parley.get_state("no-such-game"), "completed")
	if unknown.ok or unknown.status != 404 or unknown.problem == null:
		return _fail_with("an unknown game was not refused with a problem: %s" % unknown)
	print("An unknown game is refused: " + unknown.error)
	return 0


# Checks

# Whether the state after a trade event shows it, compared with the state before: "" when it does, else what differs.
func _check_trade(trade: Dictionary, before: Dictionary, after: Dictionary) -> String:
	var gold := int(trade.npcGives.gold) - int(trade.playerGives.gold)
	var moved := int(after.player.gold) - int(before.player.gold)
	if moved != gold:
		return "the player's gold changed by %d, not %d" % [moved, gold]
	for side in [[trade.npcGives.items, 1], [trade.playerGives.items, -1]]:
		for stack in side[0]:
			var change := _quantity_in(after.player.inventory, stack.id) - _quantity_in(before.player.inventory, stack.id)
			if change != side[1] * int(stack.quantity):
				return "the player's %s changed by %d, not %d" % [stack.id, change, side[1] * int(stack.quantity)]
	return ""


# How many of an item a list of stacks ({"id", "name", "quantity"}) holds.
func _quantity_in(stacks: Array, item_id: String) -> int:
	var total := 0
	for stack in stacks:
		if stack.id == item_id:
			total += int(stack.quantity)
	return total


# The first event of a type, or null.
func _first(events: Array, type: String):
	for event in events:
		if event.type == type:
			return event
	return null


func _fail(what: String, response) -> int:
	return _fail_with("%s: %s" % [what, response.error])


func _fail_with(message: String) -> int:
	printerr("conversation: FAILED: " + message)
	return 1


# Printing

# Prints events as a player would read them: speech pieces joined into lines, what the game did in brackets.
func _print_events(events: Array) -> void:
	var speech := ""
	for event in events:
		match event.type:
			"thinking", "speechBegan":
				speech = ""
			"speech":
				speech += event.text
			"speechEnded":
				print("  %s: %s" % [event.npc.name, speech])
			"narration":
				print("  " + event.text.replace("\n", "\n  "))
			"toolCall":
				print("  [toolCall] %s: %s %s" % [event.npc.name, event.tool, JSON.print(event.arguments)])
			"offer":
				print("  [offer] " + event.summary)
			"trade":
				print("  [trade] with %s: the player gives %s, gets %s" % [
					event.npc.name, _side(event.playerGives), _side(event.npcGives)])
			"moved":
				print("  [moved] to " + event.location.name)
			"problem":
				print("  [problem] " + event.detail)
			_:
				print("  [%s] %s" % [event.type, JSON.print(event)])


# One side of a trade: "20 gold", "1 Brass Lantern", "nothing".
func _side(side: Dictionary) -> String:
	var parts := []
	if int(side.gold) > 0:
		parts.append("%d gold" % int(side.gold))
	for stack in side.items:
		parts.append("%d %s" % [int(stack.quantity), stack.name])
	return "nothing" if parts.empty() else PoolStringArray(parts).join(" and ")


# Stacks as "Loaf of Bread x2, Brass Lantern".
func _items(stacks: Array) -> String:
	var names := []
	for stack in stacks:
		names.append(stack.name + ("" if int(stack.quantity) == 1 else " x%d" % int(stack.quantity)))
	return "nothing" if names.empty() else PoolStringArray(names).join(", ")


# A command-line argument --NAME=VALUE (or --NAME VALUE), else the environment variable, else "".
func _setting(name: String, variable: String) -> String:
	var arguments := OS.get_cmdline_args()
	for i in arguments.size():
		var argument: String = arguments[i]
		if argument.begins_with("--%s=" % name):
			return argument.substr(name.length() + 3, argument.length())
		if argument == "--" + name and i + 1 < arguments.size():
			return arguments[i + 1]
	return OS.get_environment(variable)
