// Wren at the North Gate: a browser game with a world of its own that uses Parley's NPCs over `parley serve`'s
// HTTP API (docs/api.md, "Use Parley with your game's own world").
//
// The page owns Wren's gold, pack and the North Gate. It pushes them to Parley when they change
// (PATCH /v1/games/{id}/state), talks to the NPC the player picks (POST …/npcs/{npc}/say), tells the NPCs what
// happened (POST …/events), and hears everything through one EventSource on GET …/events: speech, offers, trades,
// and the actions NPCs take, such as Sergeant Oona's openGate, which the page performs in its own world and
// answers (POST …/actions/{callId}). No build step, no library: open index.html from any static file server, with
// ?server=http://127.0.0.1:PORT naming a `parley serve --cors-origin` that allows this page's origin.
"use strict";

/** The Parley server: `?server=…`, else the port docs/api.md starts it on. */
const server = (new URLSearchParams(location.search).get("server") || "http://127.0.0.1:8090").replace(/\/+$/, "");

/** Every event type a game's listeners receive (docs/openapi.json, Event). */
const EVENT_TYPES = [
  "narration", "thinking", "speechBegan", "speech", "speechEnded", "notice", "problem", "goalReached", "toolCall",
  "trade", "gave", "received", "paidGold", "receivedGold", "tookItem", "droppedItem", "moved", "npcMoved", "offer",
  "offerRefused", "beat", "questAdvanced", "questCompleted", "flagSet", "flagCleared", "stateChanged", "eventsMissed",
  "ended", "worldEvent", "action",
];

// MARK: - The game's own world

/** What the page owns. Parley only hears about it. Item ids are the content pack's (Content/items.json). */
const world = {
  name: "Wren",
  gold: 10,
  inventory: { rusty_sword: 1, apple: 3 },
  gateOpen: false,
};

/** Item names, as Parley names them; the page's own to start with. */
const itemNames = { rusty_sword: "Rusty Sword", apple: "Red Apple" };

/** The items Parley's player had when Parley last said: the page pushes 0 for those it does not have. */
let parleyItems = new Set();

/** The game's id, once POST /v1/games answered. */
let game = null;

/** The one EventSource everything arrives through. */
let events = null;

/** Whether the page is playing: the listener is open and Parley has the page's state. */
let ready = false;

const $ = (id) => document.getElementById(id);

/** Adds to (or takes from) the page's own pack. */
function addItem(item, quantity) {
  itemNames[item.id] = item.name || itemNames[item.id] || item.id;
  const count = (world.inventory[item.id] || 0) + quantity;
  if (count > 0) world.inventory[item.id] = count;
  else delete world.inventory[item.id];
  parleyItems.add(item.id);
}

/** Draws the page's world. */
function render() {
  $("gold").textContent = String(world.gold);
  const pack = $("inventory");
  pack.replaceChildren();
  for (const [id, quantity] of Object.entries(world.inventory)) {
    const entry = document.createElement("li");
    entry.dataset.item = id;
    entry.dataset.quantity = String(quantity);
    entry.textContent = `${quantity} × ${itemNames[id] || id}`;
    pack.append(entry);
  }
  $("gate").dataset.state = world.gateOpen ? "open" : "closed";
  $("gate").textContent = world.gateOpen ? "open" : "closed";
  $("eat-apple").disabled = !ready || !world.inventory.apple;
  $("draw-sword").disabled = !ready || !world.inventory.rusty_sword;
}

// MARK: - The API

/** A request Parley refused: its problem (docs/api.md, Conventions). */
class Problem extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.detail : `The server answered ${status}.`);
    this.status = status;
    this.problem = problem;
  }
}

/** No answer at all: the server is down, or it does not allow this page's origin, so the browser hid its answer. */
class Unreachable extends Error {}

/** Calls the API with a JSON body, and returns the JSON answer (or null for none). */
async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(server + path, init);
  } catch (error) {
    throw new Unreachable(error.message);
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) throw new Problem(response.status, json);
  return json;
}

const gamePath = (rest = "") => `/v1/games/${encodeURIComponent(game)}${rest}`;

/** Notes what Parley's player carries, from a game state Parley sent. */
function remember(state) {
  if (!state || !state.player) return;
  parleyItems = new Set(state.player.inventory.map((stack) => stack.id));
  for (const stack of state.player.inventory) itemNames[stack.id] = stack.name;
}

/** The page's state as Parley's StatePatch: gold, name, and the whole pack (0 for what Parley has and the page not). */
function statePatch() {
  const inventory = { ...world.inventory };
  for (const id of parleyItems) if (!(id in inventory)) inventory[id] = 0;
  return { player: { name: world.name, gold: world.gold, inventory } };
}

/** Pushes the page's state; the events of what changed arrive through the listener. */
async function push() {
  try {
    remember((await call("PATCH", gamePath("/state"), statePatch())).state);
  } catch (error) {
    report(error);
  }
}

// MARK: - Starting and listening

/** Starts a game in the page's own world, then listens to it. */
async function start() {
  try {
    const created = await call("POST", "/v1/games", { state: statePatch() });
    game = created.id;
    document.body.dataset.game = game;
    for (const event of created.events) receive(event);
    remember(created.state);
    listen();
  } catch (error) {
    fail(error);
  }
}

/** Opens the EventSource. When it reconnects, the browser sends Last-Event-ID by itself and nothing is lost. */
function listen() {
  events = new EventSource(`${server}${gamePath("/events")}`);
  events.onopen = async () => {
    setStatus("connected", `Playing game ${game} on ${server}.`);
    if (ready) return;
    // Parley's player starts with the world's things: those the page's player lacks go.
    await push();
    await listNPCs();
    ready = true;
    for (const id of ["find-gold", "npc", "line", "say"]) $(id).disabled = false;
    render();
    document.body.dataset.ready = "true";
  };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) {
      setStatus("unreachable", `Lost the game's events from ${server}; reload the page to start again.`);
    } else {
      setStatus("reconnecting", "Lost the connection to Parley; reconnecting (no event is lost)…");
    }
  };
  for (const type of EVENT_TYPES) {
    events.addEventListener(type, (message) => receive(JSON.parse(message.data), message.lastEventId));
  }
}

/** Lists every NPC of the world in the "To" menu, those where Parley's player is first. */
async function listNPCs() {
  try {
    const { npcs } = await call("GET", gamePath("/npcs"));
    const menu = $("npc");
    const chosen = menu.value;
    menu.replaceChildren();
    for (const npc of [...npcs].sort((a, b) => Number(b.here) - Number(a.here))) {
      const option = document.createElement("option");
      option.value = npc.id;
      option.textContent = `${npc.name} (${npc.location.name})`;
      menu.append(option);
    }
    if (chosen && npcs.some((npc) => npc.id === chosen)) menu.value = chosen;
  } catch (error) {
    report(error);
  }
}

// MARK: - What Parley says

/** The speech being spoken, by NPC id: the log entry its pieces go to. */
const speaking = new Map();

/** Handles one event, from an answer or the listener. */
function receive(event, id) {
  switch (event.type) {
    case "speechBegan": {
      const entry = logEntry("speech", event, "");
      speaking.set(event.npc.id, entry);
      for (const thinking of document.querySelectorAll(`#log li.thinking[data-npc="${CSS.escape(event.npc.id)}"]`)) thinking.remove();
      return;
    }
    case "speech": {
      const entry = speaking.get(event.npc.id) || logEntry("speech", event, "");
      speaking.set(event.npc.id, entry);
      entry.querySelector(".text").textContent += event.text;
      return;
    }
    case "speechEnded": {
      const entry = speaking.get(event.npc.id) || logEntry("speech", event, "");
      speaking.delete(event.npc.id);
      entry.querySelector(".text").textContent = event.text;
      entry.dataset.ended = "true";
      if (id) entry.dataset.eventId = id;
      return;
    }
    case "thinking":
      logEntry("thinking", event, "is thinking…");
      return;
    case "offer":
      logEntry("offer", event, event.summary);
      showOffer(event);
      return;
    case "trade":
      // The game applies the trade Parley checked to its own world.
      world.gold += event.npcGives.gold - event.playerGives.gold;
      for (const stack of event.playerGives.items) addItem(stack, -stack.quantity);
      for (const stack of event.npcGives.items) addItem(stack, stack.quantity);
      for (const offer of document.querySelectorAll(`#offers li[data-npc="${CSS.escape(event.npc.id)}"]`)) offer.remove();
      logEntry("trade", event, `You give ${terms(event.playerGives)} and get ${terms(event.npcGives)}.`);
      render();
      return;
    case "received":
    case "gave":
    case "tookItem":
    case "droppedItem": {
      const gets = event.type === "received" || event.type === "tookItem";
      addItem(event.item, gets ? event.item.quantity : -event.item.quantity);
      logEntry("item", event, `${gets ? "+" : "−"}${event.item.quantity} ${event.item.name}`);
      render();
      return;
    }
    case "paidGold":
    case "receivedGold":
      world.gold += event.type === "receivedGold" ? event.gold : -event.gold;
      logEntry("gold", event, `${event.type === "receivedGold" ? "+" : "−"}${event.gold} gold`);
      render();
      return;
    case "action":
      logEntry("action", event, `${event.action} ${JSON.stringify(event.arguments)}`).dataset.action = event.action;
      perform(event);
      return;
    case "worldEvent":
      logEntry("world-event", event, `${event.text} (${event.witnesses.map((npc) => npc.name).join(", ") || "nobody"} saw it)`);
      return;
    case "stateChanged": {
      const what = event.field === "inventory" ? event.item.name : event.field === "counter" ? event.counter : event.field;
      const entry = logEntry("state-changed", event, `Parley now knows: ${what} ${event.previous} → ${event.value}`);
      entry.dataset.field = event.field;
      entry.dataset.value = String(event.value);
      return;
    }
    case "toolCall": {
      const entry = logEntry("tool", event, `${event.tool} ${JSON.stringify(event.arguments)}`);
      entry.dataset.tool = event.tool;
      return;
    }
    case "offerRefused":
      logEntry("refused", event, `Parley refused an offer: ${event.reasons.join(" ")}`);
      return;
    case "moved":
    case "npcMoved":
      logEntry("moved", event, `→ ${event.location.name}`);
      if (ready) listNPCs();
      return;
    case "problem":
      logEntry("problem", event, event.detail);
      return;
    case "goalReached":
      logEntry("goal", event, `Goal reached: ${event.goal}`);
      return;
    case "ended":
      events.close();
      ready = false;
      for (const control of document.querySelectorAll("button, input, select")) control.disabled = true;
      setStatus("ended", "The game ended. Reload the page for a new one.");
      return;
    default: {
      const text = event.text || event.flag || (event.quest && `${event.quest.name}: ${event.stage}`) || event.beat
        || (event.count !== undefined ? `${event.count} events missed` : "");
      logEntry(event.type, event, text);
    }
  }
}

/** A side of a trade in words. */
function terms(side) {
  const parts = side.items.map((stack) => `${stack.quantity} ${stack.name}`);
  if (side.gold > 0 || parts.length === 0) parts.unshift(`${side.gold} gold`);
  return parts.join(", ");
}

/** Adds an entry to the log: who (when an NPC), and the text. Text only: nothing from the server becomes HTML. */
function logEntry(kind, event, text) {
  const entry = document.createElement("li");
  entry.className = kind;
  if (event.npc) {
    entry.dataset.npc = event.npc.id;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = event.npc.name;
    entry.append(who, " ");
  }
  const words = document.createElement("span");
  words.className = "text";
  words.textContent = text;
  entry.append(words);
  $("log").append(entry);
  entry.scrollIntoView({ block: "nearest" });
  return entry;
}

/** Shows an offer with the buttons that answer it: the game's `accept` and `decline` lines (docs/api.md). An NPC has
 * one offer waiting at most: a new one replaces the last. */
function showOffer(event) {
  for (const old of document.querySelectorAll(`#offers li[data-npc="${CSS.escape(event.npc.id)}"]`)) old.remove();
  const card = document.createElement("li");
  card.dataset.npc = event.npc.id;
  card.dataset.playerGold = String(event.playerGives.gold);
  card.dataset.npcGold = String(event.npcGives.gold);
  const summary = document.createElement("span");
  summary.className = "summary";
  summary.textContent = event.summary;
  card.append(summary);
  for (const answer of ["accept", "decline"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = answer;
    button.textContent = answer === "accept" ? "Accept" : "Decline";
    button.addEventListener("click", async () => {
      for (const other of card.querySelectorAll("button")) other.disabled = true;
      await pending(answerOffer(answer));
    });
    card.append(" ", button);
  }
  $("offers").append(card);
}

/** Sends `accept` or `decline`, which answer the offer of the NPC the player talks to, or the only one waiting; then
 * shows the offers still waiting, as the game state lists them. */
async function answerOffer(answer) {
  try {
    await call("POST", gamePath("/input"), { text: answer });
    const state = await call("GET", gamePath());
    $("offers").replaceChildren();
    for (const offer of state.offers) showOffer(offer);
  } catch (error) {
    report(error);
  }
}

// MARK: - The game's actions

/** Performs an action an NPC takes in the page's own world, and answers it when the NPC waits for the answer. */
async function perform(event) {
  let answer;
  if (event.action === "openGate") {
    const already = world.gateOpen;
    world.gateOpen = true;
    render();
    const who = event.arguments.requestedBy || world.name;
    answer = {
      output: {
        opened: true,
        message: already ? "The North Gate stands open already." : `The North Gate grinds open for ${who}.`,
      },
    };
  } else {
    answer = { error: `This game cannot ${event.action}.` };
  }
  if (!event.await) return;
  const entry = logEntry("answer", {}, `You answer ${event.action}: ${answer.output ? answer.output.message : answer.error}`);
  entry.dataset.callId = event.callId;
  if (answer.output) entry.dataset.message = answer.output.message;
  try {
    await call("POST", gamePath(`/actions/${encodeURIComponent(event.callId)}`), answer);
  } catch (error) {
    // 404: the NPC stopped waiting (its timeoutSeconds ran out), or another client answered.
    report(error);
  }
}

// MARK: - What the player does

/** Counts a request that runs a line while it runs, so that a person (or a test) sees when all have answered. */
async function pending(promise) {
  const form = $("say-form");
  form.dataset.pending = String(Number(form.dataset.pending) + 1);
  try {
    return await promise;
  } finally {
    form.dataset.pending = String(Number(form.dataset.pending) - 1);
  }
}

$("say-form").addEventListener("submit", async (submitted) => {
  submitted.preventDefault();
  const line = $("line").value.trim();
  const npc = $("npc").value;
  if (!line || !npc) return;
  $("line").value = "";
  const said = logEntry("player", {}, `You, to ${$("npc").selectedOptions[0].textContent}: ${line}`);
  said.dataset.to = npc;
  try {
    // The answer's events also arrive through the listener, which shows them as they happen.
    await pending(call("POST", gamePath(`/npcs/${encodeURIComponent(npc)}/say`), { text: line }));
  } catch (error) {
    report(error);
  }
});

$("find-gold").addEventListener("click", () => {
  world.gold += 20;
  render();
  push();
});

$("eat-apple").addEventListener("click", () => {
  addItem({ id: "apple" }, -1);
  render();
  push();
});

$("draw-sword").addEventListener("click", async () => {
  const npc = $("npc").value;
  try {
    await pending(
      call("POST", gamePath("/events"), {
        text: `${world.name} draws a sword.`, kind: "weaponDrawn", witnesses: npc ? [npc] : "here", react: true,
      }));
  } catch (error) {
    report(error);
  }
});

// MARK: - Status

function setStatus(state, text) {
  $("status").dataset.state = state;
  $("status").textContent = text;
}

/** A request that failed while playing: in the log, in words. */
function report(error) {
  if (error instanceof Unreachable) return fail(error);
  logEntry("problem", {}, error.message);
}

/** The game could not start, or the server went away. */
function fail(error) {
  if (error instanceof Unreachable) {
    setStatus(
      "unreachable",
      `Cannot reach Parley at ${server}. Is it running, and does it allow this page's origin? Start it with `
        + `parley serve --cors-origin ${location.origin} (a browser hides the answers of a server that does not).`);
  } else {
    setStatus("error", `Parley refused to start a game: ${error.message}`);
  }
}

render();
start();
