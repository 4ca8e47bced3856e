# A client for Parley's HTTP API (`parley serve`), for Godot 3.
#
# Add it to the scene tree, then yield on any of its methods: each one is a coroutine that sends one request and
# comes back with a ParleyClient.Response (`ok`, `status`, `data`, `error`).
#
#     const ParleyClient = preload("res://parley_client.gd")
#
#     var parley = ParleyClient.new("http://127.0.0.1:8080")
#     add_child(parley)
#     var started = yield(parley.new_game(), "completed")
#     if not started.ok:
#         push_error(started.error)    # for example "Unknown game (404): There is no game ..."
#         return
#     var reply = yield(parley.send_input(started.data.id, "talk to mira"), "completed")
#     for event in reply.data.events:
#         print(event.type)          # narration, speechBegan, speech, speechEnded, toolCall, offer, trade, ...
#
# Every request carries a JSON body when it has one (the server answers 411 to a POST without Content-Length,
# and Godot's HTTPClient sends none for an empty body), and the bearer token when one is set. Answers are parsed
# as JSON; errors come back as the problem's `detail` from the server (application/problem+json), or as what
# went wrong on the way there. Godot 3's JSON parser reads every number as a float: use int() on gold and
# quantities.
#
# A game with a world of its own keeps its gold, inventory and map, and tells Parley about them: patch_state() pushes
# them, say_to() talks to an NPC directly, post_event() tells NPCs what happened. listen() opens the game's event
# stream (GET /v1/games/{id}/events) and emits `event_received` for every event of the game, whoever caused it,
# while other requests run: that is how a game sees an NPC's `action` while the NPC waits for it, and answers it
# with answer_action():
#
#     parley.connect("event_received", self, "_on_parley_event")
#     parley.listen(game_id)
#     yield(parley, "listening")
#
#     func _on_parley_event(event: Dictionary, _id: String) -> void:
#         if event.type == "action" and event.action == "openGate":
#             open_the_gate()
#             parley.answer_action(game_id, event.callId, {"opened": true, "message": "The gate grinds open."})
#
# Not covered: the server-sent events of POST /v1/games/{id}/input (and .../say) with `Accept: text/event-stream`
# (the same events, streamed while an NPC speaks); send_input() and say_to() ask for JSON and get them all at once,
# and the listener streams them meanwhile.
extends Node

# An event of the game the listener heard: the event's JSON (its `type` says which, as in docs/api.md) and its
# stream id, which a reconnecting listener sends back as Last-Event-ID.
signal event_received(event, id)
# The listener is connected: events from now on reach `event_received`.
signal listening(game_id)
# The listener stopped for good: the game ended, or the server could not be reached again. `why` says which.
signal listener_stopped(why)


# What one request came back with.
class Response:
	# Whether the server answered with a 2xx status and a body that parsed (or no body: 204).
	var ok := false
	# The HTTP status; 0 when no answer came (no server there, a timeout).
	var status := 0
	# The answer's JSON: a Dictionary for every endpoint, an Array for some transcripts, null for 204 or errors.
	var data = null
	# Why it failed, for people: "Title (status): detail" from the server's problem, or what happened on the way.
	var error := ""
	# The server's problem object (type, title, status, detail) for an HTTP error, else null.
	var problem = null

	func _to_string() -> String:
		return "ok (%d)" % status if ok else error


# The server's base URL, as `parley serve` prints it: http://127.0.0.1:PORT (no /v1, no trailing slash).
var base_url := ""
# The bearer token the server was started with (--token or PARLEY_TOKEN), or "" for none.
var token := ""
# The longest a request may take, in seconds, answer included. An NPC played by a language model may take long.
var timeout_seconds := 120


func _init(url := "", bearer_token := "") -> void:
	base_url = url.rstrip("/")
	token = bearer_token


# GET /v1/health: {"status": "ok", "version": ..., "games": N}.
func health():
	return yield(_request(HTTPClient.METHOD_GET, "/v1/health"), "completed")


# POST /v1/games with {}: a new game, autosaved to the first free slot. data: {"id", "events", "state"}. With a
# state (as patch_state() takes it), the game starts in the game's own world.
func new_game(state = null):
	var body := {}
	if state != null:
		body["state"] = state
	return yield(_request(HTTPClient.METHOD_POST, "/v1/games", body), "completed")


# POST /v1/games with {"load": slot}: the game saved in a slot (as list_saves() names them), as a new game id.
func load_game(slot: String):
	return yield(_request(HTTPClient.METHOD_POST, "/v1/games", {"load": slot}), "completed")


# POST /v1/games with {"continue": true}: the most recently saved game of the autosave family.
func continue_game():
	return yield(_request(HTTPClient.METHOD_POST, "/v1/games", {"continue": true}), "completed")


# GET /v1/games/{id}: the game's state: location (exits, items, npcs), player (gold, inventory), talkingTo,
# offers, quests, goal.
func get_state(game_id: String):
	return yield(_request(HTTPClient.METHOD_GET, _game_path(game_id)), "completed")


# POST /v1/games/{id}/input with {"text": text}: any line a player can type. data: {"events": [...], "ended"}.
func send_input(game_id: String, text: String):
	return yield(_request(HTTPClient.METHOD_POST, _game_path(game_id) + "/input", {"text": text}), "completed")


# POST /v1/games/{id}/npcs/{npc}/say with {"text": text}: a line said to one NPC, wherever Parley's player is (the
# game decides who is in earshot). data: as send_input(); `accept` and `decline` go to that NPC afterwards.
func say_to(game_id: String, npc_id: String, text: String):
	var path := _game_path(game_id) + "/npcs/" + npc_id.http_escape() + "/say"
	return yield(_request(HTTPClient.METHOD_POST, path, {"text": text}), "completed")


# GET /v1/games/{id}/npcs: {"npcs": [{"id", "name", "location", "here", "talkedTo", "gold", "inventory", ...}]},
# every NPC of the world wherever it is.
func list_npcs(game_id: String):
	return yield(_request(HTTPClient.METHOD_GET, _game_path(game_id) + "/npcs"), "completed")


# PATCH /v1/games/{id}/state: pushes the game's own state, any part of {"player": {"name", "gold", "inventory":
# {"bread": 2}, "location"}, "npcs": {"mira": {"gold", "inventory", "location", "attitude"}}, "flags": {"set": [...],
# "clear": [...]}, "counters": {...}, "quests": {...}}. Inventories change item by item (0 takes one away). data:
# {"events": [...what changed...], "state": ...}. A bad value changes nothing: status 422, and problem.errors lists
# every mistake with its JSON path.
func patch_state(game_id: String, patch: Dictionary):
	return yield(_request(HTTPClient.METHOD_PATCH, _game_path(game_id) + "/state", patch), "completed")


# POST /v1/games/{id}/events: tells NPCs what happened in the game's world. witnesses: "here" (the NPCs where
# Parley's player is) or an Array of NPC ids; react: whether they answer at once. kind: a name content rules match
# ("weaponDrawn"), or "". data: {"events": [worldEvent, ...the reactions...], "ended"}.
func post_event(game_id: String, text: String, witnesses = "here", react := false, kind := ""):
	var body := {"text": text, "witnesses": witnesses, "react": react}
	if kind != "":
		body["kind"] = kind
	return yield(_request(HTTPClient.METHOD_POST, _game_path(game_id) + "/events", body), "completed")


# POST /v1/games/{id}/actions/{callId} with {"output": output}: the game's answer to an NPC's `action` event that
# awaits one; the NPC's model reads the output, and its reply can say it. ok with status 204; 404 when the call no
# longer waits (its timeoutSeconds ran out, or it was answered).
func answer_action(game_id: String, call_id: String, output):
	var path := _game_path(game_id) + "/actions/" + call_id.http_escape()
	return yield(_request(HTTPClient.METHOD_POST, path, {"output": output}), "completed")


# POST /v1/games/{id}/actions/{callId} with {"error": message}: the action failed in the game, in its words.
func refuse_action(game_id: String, call_id: String, message: String):
	var path := _game_path(game_id) + "/actions/" + call_id.http_escape()
	return yield(_request(HTTPClient.METHOD_POST, path, {"error": message}), "completed")


# POST /v1/games/{id}/save with {"slot": slot}: saves the game to a slot. data: {"slot", "events"}.
func save_game(game_id: String, slot: String):
	return yield(_request(HTTPClient.METHOD_POST, _game_path(game_id) + "/save", {"slot": slot}), "completed")


# GET /v1/saves: {"saves": [{"slot", "label", "world", "player", "location", "savedAt", ...}]}.
func list_saves():
	return yield(_request(HTTPClient.METHOD_GET, "/v1/saves"), "completed")


# GET /v1/games/{id}/transcript/{npc}: the conversation with an NPC (by id, for example "mira") as Apple's
# transcript JSON; annotated: the annotated one.
func get_transcript(game_id: String, npc_id: String, annotated := false):
	var path := _game_path(game_id) + "/transcript/" + npc_id.http_escape()
	if annotated:
		path += "?annotated=1"
	return yield(_request(HTTPClient.METHOD_GET, path), "completed")


# GET /v1/games/{id}/feedback: {"reports": [...]}, the offers the game's rules refused.
func get_feedback(game_id: String):
	return yield(_request(HTTPClient.METHOD_GET, _game_path(game_id) + "/feedback"), "completed")


# DELETE /v1/games/{id}: ends the game (it stays in its save slot). ok with status 204 and no data.
func delete_game(game_id: String):
	return yield(_request(HTTPClient.METHOD_DELETE, _game_path(game_id)), "completed")


# Listening

# GET /v1/games/{id}/events, read as it comes: emits `listening` once connected, then `event_received` for every
# event of the game (those of requests this client sends too, and of other clients), until stop_listening(), the
# game's end (an `ended` event), or a server that cannot be reached again (`listener_stopped`). A dropped
# connection is opened again with Last-Event-ID, so no event is lost (the server keeps the last 1,000). One game at
# a time: listen() to another stops the first.
func listen(game_id: String) -> void:
	stop_listening()
	_listened_game = game_id
	_last_event_id = ""
	_retries = 0
	_open_listener()


# Stops the listener, if one runs; emits nothing.
func stop_listening() -> void:
	if _listener != null:
		_listener.close()
	_listener = null
	_listened_game = ""
	_generation += 1
	set_process(false)


# Whether the listener is connected and reading the game's events.
func is_listening() -> bool:
	return _listener != null and _phase == _Phase.READING


# How many times the listener tries again, one second apart more each time, after losing the server.
const LISTENER_RETRIES := 5

enum _Phase { CONNECTING, REQUESTED, READING }

var _listener: HTTPClient = null
var _listened_game := ""
var _phase: int = _Phase.CONNECTING
var _last_event_id := ""
var _retries := 0
# Counts listen() and stop_listening() calls: a retry that waited checks it is still wanted.
var _generation := 0
# The stream's bytes not yet read up to a line break, and the event being read.
var _pending := PoolByteArray()
var _event_data := ""
var _event_id := ""
var _ended := false


func _open_listener() -> void:
	var address := _address()
	_listener = HTTPClient.new()
	_pending = PoolByteArray()
	_event_data = ""
	_event_id = ""
	_ended = false
	_phase = _Phase.CONNECTING
	var error: int = _listener.connect_to_host(address[0], address[1], address[2])
	if error != OK:
		_stop_listener("cannot connect to %s (Godot error %d)" % [base_url, error])
		return
	set_process(true)


func _process(_delta: float) -> void:
	if _listener == null:
		set_process(false)
		return
	_listener.poll()
	var status := _listener.get_status()
	match _phase:
		_Phase.CONNECTING:
			if status == HTTPClient.STATUS_CONNECTED:
				var headers := PoolStringArray(["Accept: text/event-stream"])
				if token != "":
					headers.append("Authorization: Bearer " + token)
				if _last_event_id != "":
					headers.append("Last-Event-ID: " + _last_event_id)
				var error: int = _listener.request(
					HTTPClient.METHOD_GET, _game_path(_listened_game) + "/events", headers)
				if error != OK:
					_lose_listener("the request failed (Godot error %d)" % error)
				else:
					_phase = _Phase.REQUESTED
			elif status != HTTPClient.STATUS_RESOLVING and status != HTTPClient.STATUS_CONNECTING:
				_lose_listener("cannot connect to %s: is `parley serve` running there?" % base_url)
		_Phase.REQUESTED:
			if status == HTTPClient.STATUS_REQUESTING:
				return
			if not _listener.has_response():
				_lose_listener("the server closed the connection without answering")
			elif _listener.get_response_code() != 200:
				# 401 (token), 404 (no such game, or it ended): trying again would get the same.
				_stop_listener("the server answered GET %s/events with %d" % [
					_game_path(_listened_game), _listener.get_response_code()])
			else:
				_phase = _Phase.READING
				_retries = 0
				emit_signal("listening", _listened_game)
		_Phase.READING:
			while _listener != null and _listener.get_status() == HTTPClient.STATUS_BODY:
				var chunk := _listener.read_response_body_chunk()
				if chunk.empty():
					return
				_read(chunk)
			if _listener == null:
				return
			if _ended or _listener.get_status() == HTTPClient.STATUS_CONNECTED:
				_stop_listener("the game ended" if _ended else "the server ended the game's event stream")
			elif _listener.get_status() != HTTPClient.STATUS_BODY:
				_lose_listener("the connection to %s was lost" % base_url)


# Takes the bytes of the stream, and handles every whole line among them.
func _read(bytes: PoolByteArray) -> void:
	_pending.append_array(bytes)
	var start := 0
	for i in _pending.size():
		if _pending[i] == 10:
			var line := _pending.subarray(start, i - 1).get_string_from_utf8() if i > start else ""
			start = i + 1
			if line.ends_with("\r"):
				line = line.left(line.length() - 1)
			_read_line(line)
			if _listener == null:
				return
	_pending = _pending.subarray(start, _pending.size() - 1) if start < _pending.size() else PoolByteArray()


# One line of the event-stream format: a field (`id`, `event`, `data`), a comment (`: heartbeat`), or the blank line
# that ends an event.
func _read_line(line: String) -> void:
	if line == "":
		if _event_data != "":
			_dispatch()
		_event_data = ""
		return
	if line.begins_with(":"):
		return
	var colon := line.find(":")
	var field := line if colon < 0 else line.left(colon)
	var value := "" if colon < 0 else line.substr(colon + 1, line.length())
	if value.begins_with(" "):
		value = value.substr(1, value.length())
	match field:
		"data":
			_event_data += ("\n" if _event_data != "" else "") + value
		"id":
			_event_id = value
		# `event` names the type, which the data's `type` says too.


func _dispatch() -> void:
	_last_event_id = _event_id
	var parsed := JSON.parse(_event_data)
	if parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY:
		push_warning("ParleyClient: an event that is not a JSON object: " + _event_data.left(200))
		return
	var event: Dictionary = parsed.result
	if event.get("type") == "ended":
		_ended = true
	emit_signal("event_received", event, _event_id)


# The connection is gone: open it again (with Last-Event-ID) after a pause, or give up after LISTENER_RETRIES.
func _lose_listener(why: String) -> void:
	if _retries >= LISTENER_RETRIES:
		_stop_listener(why)
		return
	_retries += 1
	_listener.close()
	_listener = null
	set_process(false)
	var generation := _generation
	yield(get_tree().create_timer(_retries), "timeout")
	if generation == _generation and _listened_game != "":
		_open_listener()


func _stop_listener(why: String) -> void:
	stop_listening()
	emit_signal("listener_stopped", why)


# The base URL's host, port and whether it is https: ["127.0.0.1", 8080, false].
func _address() -> Array:
	var rest := base_url
	var ssl := rest.begins_with("https://")
	if rest.find("://") >= 0:
		rest = rest.substr(rest.find("://") + 3, rest.length())
	rest = rest.split("/")[0]
	var port := 443 if ssl else 80
	var colon := rest.find_last(":")
	if colon > rest.find_last("]"):
		port = int(rest.substr(colon + 1, rest.length()))
		rest = rest.left(colon)
	return [rest.trim_prefix("[").trim_suffix("]"), port, ssl]


# Requests

# GET an audio path, as a `speech` or `speechEnded` event's `audio` gives it when the server speaks (parley serve
# --speech espeak): data is the WAV file's bytes (a PoolByteArray); wav_stream() makes it playable.
func get_audio(path: String):
	return yield(_request(HTTPClient.METHOD_GET, path, null, true), "completed")


# A WAV file of 16-bit PCM, mono or stereo (what the audio paths serve), as an AudioStreamSample an
# AudioStreamPlayer plays; null when the bytes are not one. Chunks other than "fmt " and "data" are skipped.
static func wav_stream(bytes: PoolByteArray) -> AudioStreamSample:
	if bytes.size() < 12 or _tag(bytes, 0) != "RIFF" or _tag(bytes, 8) != "WAVE":
		return null
	var format := 0
	var channels := 0
	var rate := 0
	var bits := 0
	var offset := 12
	while offset + 8 <= bytes.size():
		var size := _uint(bytes, offset + 4, 4)
		var body := offset + 8
		match _tag(bytes, offset):
			"fmt ":
				format = _uint(bytes, body, 2)
				channels = _uint(bytes, body + 2, 2)
				rate = _uint(bytes, body + 4, 4)
				bits = _uint(bytes, body + 14, 2)
			"data":
				if format != 1 or bits != 16 or channels < 1 or channels > 2 or size < 2:
					return null
				var sample := AudioStreamSample.new()
				sample.format = AudioStreamSample.FORMAT_16_BITS
				sample.mix_rate = rate
				sample.stereo = channels == 2
				sample.data = bytes.subarray(body, min(body + size, bytes.size()) - 1)
				return sample
		offset = body + size + size % 2
	return null


# Four bytes as text: a RIFF chunk's name.
static func _tag(bytes: PoolByteArray, offset: int) -> String:
	return bytes.subarray(offset, offset + 3).get_string_from_ascii()


# A little-endian unsigned number of `size` bytes.
static func _uint(bytes: PoolByteArray, offset: int, size: int) -> int:
	var value := 0
	for index in range(size):
		value |= bytes[offset + index] << (8 * index)
	return value


func _game_path(game_id: String) -> String:
	return "/v1/games/" + game_id.http_escape()


# Sends one request and waits for its answer. `body` is sent as JSON; null sends none (GET, DELETE). With `raw`, a
# 2xx answer's data is its bytes (a PoolByteArray), not parsed JSON.
func _request(method: int, path: String, body = null, raw := false):
	var response := Response.new()
	if not is_inside_tree():
		response.error = "ParleyClient is not in the scene tree: add_child() it before calling it."
		push_error(response.error)
		# A coroutine must yield before it returns, or the caller's yield(..., "completed") fails.
		yield(Engine.get_main_loop(), "idle_frame")
		return response
	var headers := PoolStringArray(["Accept: " + ("*/*" if raw else "application/json")])
	var text := ""
	if body != null:
		text = JSON.print(body)
		headers.append("Content-Type: application/json")
	if token != "":
		headers.append("Authorization: Bearer " + token)
	var http := HTTPRequest.new()
	http.timeout = timeout_seconds
	add_child(http)
	var url := base_url + path
	var started: int = http.request(url, headers, true, method, text)
	if started != OK:
		http.queue_free()
		response.error = "Cannot send %s: Godot error %d (is the base URL, %s, an http:// URL?)" % [
			url, started, base_url]
		yield(get_tree(), "idle_frame")
		return response
	var answer: Array = yield(http, "request_completed")
	http.queue_free()
	var result: int = answer[0]
	response.status = answer[1]
	var payload: PoolByteArray = answer[3]
	if result != HTTPRequest.RESULT_SUCCESS:
		response.error = _transport_error(result, url)
		return response
	if raw and response.status >= 200 and response.status < 300:
		response.ok = true
		response.data = payload
		return response
	var content := payload.get_string_from_utf8()
	if content == "":
		response.ok = response.status >= 200 and response.status < 300
		if not response.ok:
			response.error = "HTTP %d from %s, with no body" % [response.status, url]
		return response
	var parsed := JSON.parse(content)
	if parsed.error != OK:
		response.error = "HTTP %d from %s, not JSON (%s at line %d): %s" % [
			response.status, url, parsed.error_string, parsed.error_line, content.left(200)]
		return response
	if response.status >= 200 and response.status < 300:
		response.ok = true
		response.data = parsed.result
	elif typeof(parsed.result) == TYPE_DICTIONARY and parsed.result.has("detail"):
		response.problem = parsed.result
		response.error = "%s (%d): %s" % [parsed.result.get("title", "Error"), response.status, parsed.result.detail]
	else:
		response.error = "HTTP %d from %s: %s" % [response.status, url, content.left(200)]
	return response


# What an HTTPRequest result code means, and what to do about it.
func _transport_error(result: int, url: String) -> String:
	match result:
		HTTPRequest.RESULT_CANT_CONNECT, HTTPRequest.RESULT_CANT_RESOLVE, HTTPRequest.RESULT_CONNECTION_ERROR:
			return "Cannot connect to %s: is `parley serve` running there? It prints its URL when it starts." % base_url
		HTTPRequest.RESULT_TIMEOUT:
			return "No answer from %s within %d s (timeout_seconds)." % [url, timeout_seconds]
		HTTPRequest.RESULT_NO_RESPONSE:
			return "The server closed the connection without answering %s." % url
		HTTPRequest.RESULT_BODY_SIZE_LIMIT_EXCEEDED:
			return "The answer from %s is larger than body_size_limit." % url
		HTTPRequest.RESULT_SSL_HANDSHAKE_ERROR:
			return "TLS failed for %s: `parley serve` speaks plain http://." % url
		_:
			return "The request to %s failed (HTTPRequest result %d)." % [url, result]
