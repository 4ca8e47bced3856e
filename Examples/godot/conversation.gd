# Wren in Brackenford: a Godot game with a world of its own that uses Parley's NPCs through `parley serve`, and
# prints what it did (docs/api.md, "Use Parley with your game's own world").
#
# The game owns Wren's gold and pack (the variables below) and the North Gate; Parley only hears about them.
#   1. It pushes them (PATCH /v1/games/{id}/state), and Parley's NPCs price and offer by what it pushed: with 10 gold,
#      Mira names the Brass Lantern's price (25) and offers nothing; Wren finds 20 gold, the game pushes 30, and Mira
#      offers the lantern. Wren accepts, and the game applies the trade Parley checked to its own world (the `trade`
#      event), then checks that Parley's state says the same.
#   2. It listens to the game's events (GET /v1/games/{id}/events) while it talks. Asked to signal the gatehouse,
#      Sergeant Oona takes the game's `openGate` action (Content/actions.json), which waits for the game's answer:
#      the game opens its gate, answers (POST /v1/games/{id}/actions/{callId}), and Oona's reply says what it answered.
#   3. It tells Oona that Wren draws a sword (POST /v1/games/{id}/events, with react), and prints what she says.
# Then it saves the game to a slot and loads it back: the pushed state is in the save.
# When the server speaks (parley serve --speech espeak), each NPC line's `speechEnded` has `audio`: the game GETs the
# WAV and plays it with an AudioStreamPlayer. Headless (godot3-server) there is no sound to play it on, so it also
# prints what it loaded: "(voice: NPC's line, 2.41 s, 16-bit mono at 22050 Hz, 37 visemes)".
#
#     godot3-server --path Examples/godot --url=http://127.0.0.1:8080     (or PARLEY_URL=http://...)
#
# Prints "game id: ID" once the game has started. Exits with 0 on success, 1 on any failure (a request refused, a
# step without the event it must bring, Parley's state and the game's own that disagree), 2 without a server URL.
extends Node

const ParleyClient = preload("res://parley_client.gd")

# Where the game is saved, to be loaded back.
const SLOT := "godot-example"
# The longest the whole run may take, in seconds; then it fails.
const TIME_LIMIT := 120
# What Mira sells, and what it costs at her price.
const ITEM := "lantern"
const MERCHANT := "mira"
# The NPC who keeps the North Gate, and the action she takes.
const GUARD := "oona"
const ACTION := "openGate"

# The game's own world. Item ids are the content pack's (Content/items.json).
var player_name := "Wren"
var gold := 10
var inventory := {"rusty_sword": 1, "apple": 3}
var gate_open := false

var parley
var game_id := ""
# The items Parley's player had when Parley last said: the game pushes 0 for those its own player lacks.
var parley_items := []
# Item names, as Parley names them, for printing.
var item_names := {}
# The action calls the listener heard, by callId: {"event", "answer"} (what the game answered), and the answer's
# Response from the server once it is back.
var actions := {}
var answers := {}
# Why the listener stopped, when it did.
var listener_error := ""
# Plays the NPCs' spoken lines, one after another: a line that comes while another plays waits in `voice_queue`.
var voice := AudioStreamPlayer.new()
var voice_queue := []


func _ready() -> void:
	# First, so that it ends a run that a script error stopped: Godot reports those and goes on running.
	get_tree().create_timer(TIME_LIMIT).connect("timeout", self, "_on_time_limit")
	var url := _setting("url", "PARLEY_URL")
	if url == "":
		printerr("conversation: give the server's base URL, as `parley serve` prints it: --url=http://127.0.0.1:PORT "
			+ "after the Godot arguments, or PARLEY_URL.")
		get_tree().quit(2)
		return
	add_child(voice)
	voice.connect("finished", self, "_on_voice_finished")
	parley = ParleyClient.new(url, _setting("token", "PARLEY_TOKEN"))
	add_child(parley)
	parley.connect("event_received", self, "_on_parley_event")
	parley.connect("listener_stopped", self, "_on_listener_stopped")
	var code = yield(_play(), "completed")
	if typeof(code) != TYPE_INT:
		code = 1    # A script error ended _play() early, and Godot has printed it.
	parley.stop_listening()
	print("PASSED" if code == 0 else "FAILED")
	get_tree().quit(code)


func _on_time_limit() -> void:
	printerr("conversation: FAILED: not done within %d s; is the server answering?" % TIME_LIMIT)
	get_tree().quit(1)


# The run; returns the exit code.
func _play():
	var health = yield(parley.health(), "completed")
	if not health.ok:
		return _fail("health", health)
	print("Parley %s at %s" % [health.data.version, parley.base_url])

	var started = yield(parley.new_game(), "completed")
	if not started.ok:
		return _fail("new game", started)
	game_id = started.data.id
	print("game id: " + game_id)
	_print_events(started.data.events)
	_remember(started.data.state)

	# Listen first, so that no event of what follows is missed: an action waits for its answer while the line that
	# caused it is still running.
	parley.listen(game_id)
	while not parley.is_listening():
		if listener_error != "":
			return _fail_with("listening to the game: " + listener_error)
		yield(get_tree(), "idle_frame")
	print("Listening to the game's events.")

	# 1. The game's own gold and pack, pushed; prices and offers follow them.
	var wrong = yield(_push(), "completed")
	if wrong != "":
		return _fail_with(wrong)
	var priced = yield(_say(MERCHANT, "I'll take the lantern"), "completed")
	if priced == null:
		return 1
	if _first(priced, "speechEnded") == null or _first(priced, "offer") != null:
		return _fail_with("with %d gold, %s should name her price and offer nothing" % [gold, MERCHANT])
	print("With %d gold, %s names her price and offers nothing." % [gold, _first(priced, "speechEnded").npc.name])

	gold += 20
	print("%s finds 20 gold in the gutter: %d gold." % [player_name, gold])
	wrong = yield(_push(), "completed")
	if wrong != "":
		return _fail_with(wrong)
	var offered = yield(_say(MERCHANT, "I'll take the lantern"), "completed")
	if offered == null:
		return 1
	var offer = _first(offered, "offer")
	if offer == null:
		return _fail_with("with %d gold, %s made no offer" % [gold, MERCHANT])
	# `accept` is a line of the game's, not words to Mira: it goes to /input, and answers the offer of the NPC the
	# player talks to (say_to() made that Mira).
	print("> accept")
	var accepting = yield(parley.send_input(game_id, "accept"), "completed")
	if not accepting.ok:
		return _fail("accept", accepting)
	var accepted: Array = accepting.data.events
	_print_events(accepted)
	var trade = _first(accepted, "trade")
	if trade == null:
		return _fail_with("accepting %s's offer brought no trade" % MERCHANT)
	# The game applies the trade Parley checked to its own world, then checks that Parley says the same.
	_apply(trade)
	var state = yield(parley.get_state(game_id), "completed")
	if not state.ok:
		return _fail("state after the trade", state)
	wrong = _disagreement(state.data.player)
	if wrong != "":
		return _fail_with("after the trade, " + wrong)
	if int(inventory.get(ITEM, 0)) != 1:
		return _fail_with("no %s bought from %s" % [ITEM, MERCHANT])
	print("Bought %s from %s for %d gold. %s's world: %s; Parley's state agrees." % [
		_items(trade.npcGives.items), trade.npc.name, int(trade.playerGives.gold), player_name, _world()])

	# 2. An action the game answers.
	var gate = yield(_say(GUARD, "please signal the gatehouse to open the gate"), "completed")
	if gate == null:
		return 1
	var call_id := ""
	for id in actions:
		if actions[id].event.action == ACTION:
			call_id = id
	if call_id == "":
		return _fail_with("%s took no %s action (the listener heard none)" % [GUARD, ACTION])
	while not answers.has(call_id):
		yield(get_tree(), "idle_frame")
	if not answers[call_id].ok:
		return _fail("answering %s %s" % [ACTION, call_id], answers[call_id])
	var message: String = actions[call_id].answer.output.message
	var reply = _first(gate, "speechEnded")
	if reply == null or reply.text.find(message) < 0:
		return _fail_with("%s's reply does not say what the game answered (%s)" % [GUARD, message])
	print("%s's reply says what the game answered: %s" % [reply.npc.name, message])
	# The gate is the game's: it tells Parley it is open, for rules that read the flag.
	var flagged = yield(parley.patch_state(game_id, {"flags": {"set": ["north_gate_open"]}}), "completed")
	if not flagged.ok:
		return _fail("pushing the gate", flagged)
	_print_events(flagged.data.events)

	# 3. An event the game tells, and the reaction.
	print("> (%s draws a sword, in front of %s)" % [player_name, GUARD])
	var told = yield(parley.post_event(
		game_id, "%s draws a sword." % player_name, [GUARD], true, "weaponDrawn"), "completed")
	if not told.ok:
		return _fail("event", told)
	_print_events(told.data.events)
	var reaction = _first(told.data.events, "speechEnded")
	if _first(told.data.events, "worldEvent") == null or reaction == null or reaction.npc.id != GUARD:
		return _fail_with("%s did not react to the sword" % GUARD)
	print("%s reacts: %s" % [reaction.npc.name, reaction.text])

	# The conversation with Oona holds what the game answered and what it told her.
	var transcript = yield(parley.get_transcript(game_id, GUARD), "completed")
	if not transcript.ok:
		return _fail("transcript", transcript)
	var entries: Array = transcript.data.transcript.entries
	print("Transcript with %s: %d entries" % [GUARD, entries.size()])

	# The pushed state is in the save.
	var saved = yield(parley.save_game(game_id, SLOT), "completed")
	if not saved.ok:
		return _fail("save", saved)
	var loaded = yield(parley.load_game(SLOT), "completed")
	if not loaded.ok:
		return _fail("load", loaded)
	wrong = _disagreement(loaded.data.state.player)
	if wrong != "":
		return _fail_with("slot %s loads another game: %s" % [SLOT, wrong])
	print("Saved to %s and loaded back as game %s: %s" % [SLOT, loaded.data.id, _world()])
	var deleted = yield(parley.delete_game(loaded.data.id), "completed")
	if not deleted.ok:
		return _fail("delete", deleted)

	var unknown = yield(parley.get_state("no-such-game"), "completed")
	if unknown.ok or unknown.status != 404 or unknown.problem == null:
		return _fail_with("an unknown game was not refused with a problem: %s" % unknown)
	print("An unknown game is refused: " + unknown.error)
	return 0


# The game's world

# Pushes the game's own name, gold and pack; "" when Parley took them, else what went wrong.
func _push():
	var pack := inventory.duplicate()
	for id in parley_items:
		if not pack.has(id):
			pack[id] = 0
	print("> (push: %s)" % _world())
	var pushed = yield(parley.patch_state(game_id, {"player": {"name": player_name, "gold": gold, "inventory": pack}}),
		"completed")
	if not pushed.ok:
		return "pushing the game's state: " + pushed.error
	_print_events(pushed.data.events)
	_remember(pushed.data.state)
	var wrong := _disagreement(pushed.data.state.player)
	return "" if wrong == "" else "after the push, " + wrong


# Applies a trade Parley checked to the game's own world.
func _apply(trade: Dictionary) -> void:
	gold += int(trade.npcGives.gold) - int(trade.playerGives.gold)
	for stack in trade.playerGives.items:
		_add(stack, -int(stack.quantity))
	for stack in trade.npcGives.items:
		_add(stack, int(stack.quantity))


func _add(stack: Dictionary, quantity: int) -> void:
	item_names[stack.id] = stack.name
	var count := int(inventory.get(stack.id, 0)) + quantity
	if count > 0:
		inventory[stack.id] = count
	else:
		inventory.erase(stack.id)


# Notes what Parley's player carries, from a game state Parley sent.
func _remember(state: Dictionary) -> void:
	parley_items.clear()
	for stack in state.player.inventory:
		parley_items.append(stack.id)
		item_names[stack.id] = stack.name


# "" when Parley's player (from a game state) has the game's own gold and pack, else how they differ.
func _disagreement(player: Dictionary) -> String:
	if int(player.gold) != gold:
		return "Parley's player has %d gold, the game's %d" % [int(player.gold), gold]
	var theirs := {}
	for stack in player.inventory:
		theirs[stack.id] = int(theirs.get(stack.id, 0)) + int(stack.quantity)
	for id in theirs.keys() + inventory.keys():
		if int(theirs.get(id, 0)) != int(inventory.get(id, 0)):
			return "Parley's player has %d %s, the game's %d" % [int(theirs.get(id, 0)), id, int(inventory.get(id, 0))]
	return ""


# The listener

# Every event of the game, whoever caused it. The answers of the game's own requests print theirs; the listener acts
# on actions, which must be answered while the line that caused them runs.
func _on_parley_event(event: Dictionary, id: String) -> void:
	if event.type != "action":
		return
	print("  [action %s] %s: %s %s (call %s, %s)" % [
		id, event.npc.name, event.action, JSON.print(event.arguments), event.callId,
		"waits for the game's answer" if event.get("await", false) else "the game is only told"])
	var answer := _answer(event)
	actions[event.callId] = {"event": event, "answer": answer}
	if not event.get("await", false):
		return
	var response
	if answer.has("output"):
		print("  (the game answers %s: %s)" % [event.action, JSON.print(answer.output)])
		response = yield(parley.answer_action(game_id, event.callId, answer.output), "completed")
	else:
		print("  (the game refuses %s: %s)" % [event.action, answer.error])
		response = yield(parley.refuse_action(game_id, event.callId, answer.error), "completed")
	answers[event.callId] = response


# What the game does for an action, and its answer: {"output": ...} or {"error": ...}. Called once per call.
func _answer(event: Dictionary) -> Dictionary:
	if event.action != ACTION:
		return {"error": "This game cannot %s." % event.action}
	var who: String = event.arguments.get("requestedBy", player_name)
	var message := "The North Gate stands open already." if gate_open else "The North Gate grinds open for %s." % who
	gate_open = true
	return {"output": {"opened": true, "message": message}}


func _on_listener_stopped(why: String) -> void:
	listener_error = why
	if why != "the game ended":
		printerr("conversation: the listener stopped: " + why)


# Requests

# Says a line to an NPC and prints its events; null (after printing why) when it failed or brought a problem.
func _say(npc: String, line: String):
	print("> (to %s) %s" % [npc, line])
	var reply = yield(parley.say_to(game_id, npc, line), "completed")
	if not reply.ok:
		_fail("'%s'" % line, reply)
		return null
	var events: Array = reply.data.events
	_print_events(events)
	var unspoken = yield(_speak(events), "completed")
	if unspoken != "":
		_fail_with("'%s': %s" % [line, unspoken])
		return null
	for event in events:
		if event.type == "problem":
			_fail_with("'%s' brought a problem: %s" % [line, event.detail])
			return null
	return events


# Plays each spoken line of the events, when the server speaks: GETs the WAV a `speechEnded` event's `audio` names
# and plays it. Returns "" or why a line's audio could not be played.
func _speak(events: Array):
	yield(get_tree(), "idle_frame")
	for event in events:
		if event.type != "speechEnded" or not event.has("audio"):
			continue
		var wav = yield(parley.get_audio(event.audio), "completed")
		if not wav.ok:
			return "its audio, %s: %s" % [event.audio, wav.error]
		var stream = ParleyClient.wav_stream(wav.data)
		if stream == null:
			return "its audio, %s, is not a WAV file of 16-bit PCM" % event.audio
		_play_line(stream)
		print("  (voice: %s's line, %.2f s, 16-bit %s at %d Hz, %d visemes; %d waiting)" % [
			event.npc.name, stream.get_length(), "stereo" if stream.stereo else "mono", stream.mix_rate,
			event.get("visemes", []).size(), voice_queue.size()])
	return ""


# Plays a line now when nothing is playing, else after the lines before it (a line never cuts another short).
func _play_line(stream: AudioStream) -> void:
	if voice.playing or not voice_queue.empty():
		voice_queue.append(stream)
		return
	voice.stream = stream
	voice.play()


# One line ended: the next waiting one plays.
func _on_voice_finished() -> void:
	if voice_queue.empty():
		return
	voice.stream = voice_queue.pop_front()
	voice.play()


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
				print("  [toolCall] %s: %s %s -> %s" % [
					event.npc.name, event.tool, JSON.print(event.arguments), JSON.print(event.get("output"))])
			"offer":
				print("  [offer] " + event.summary)
			"trade":
				print("  [trade] with %s: the player gives %s, gets %s" % [
					event.npc.name, _side(event.playerGives), _side(event.npcGives)])
			"stateChanged":
				var what: String = event.field
				if event.has("item"):
					what = event.item.name
				print("  [stateChanged] %s%s: %s -> %s" % [
					"" if not event.has("npc") else event.npc.name + "'s ", what, event.previous, event.value])
			"flagSet", "flagCleared":
				print("  [%s] %s" % [event.type, event.flag])
			"worldEvent":
				print("  [worldEvent] %s (witnesses: %d)" % [event.text, event.witnesses.size()])
			"action":
				pass    # The listener has printed it, as it happened.
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


# The game's own gold and pack: "30 gold, Rusty Sword, Red Apple x3".
func _world() -> String:
	var names := []
	for id in inventory:
		names.append(item_names.get(id, id) + ("" if int(inventory[id]) == 1 else " x%d" % int(inventory[id])))
	return "%d gold, %s" % [gold, "nothing" if names.empty() else PoolStringArray(names).join(", ")]


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
