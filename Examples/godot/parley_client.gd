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
# Not covered: the server-sent events of POST /v1/games/{id}/input with `Accept: text/event-stream` (the same
# events, streamed while an NPC speaks); send_input() asks for JSON and gets them all at once.
extends Node


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


# POST /v1/games with {}: a new game, autosaved to the first free slot. data: {"id", "events", "state"}.
func new_game():
	return yield(_request(HTTPClient.METHOD_POST, "/v1/games", {}), "completed")


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


# Requests

func _game_path(game_id: String) -> String:
	return "/v1/games/" + game_id.http_escape()


# Sends one request and waits for its answer. `body` is sent as JSON; null sends none (GET, DELETE).
func _request(method: int, path: String, body = null):
	var response := Response.new()
	if not is_inside_tree():
		response.error = "ParleyClient is not in the scene tree: add_child() it before calling it."
		push_error(response.error)
		# A coroutine must yield before it returns, or the caller's yield(..., "completed") fails.
		yield(Engine.get_main_loop(), "idle_frame")
		return response
	var headers := PoolStringArray(["Accept: application/json"])
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
