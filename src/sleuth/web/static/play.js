// The game page: the server draws it, and its forms play without this script.  The script
// takes them over: it sends each action to /api/play/ID/action and draws the page again from
// the answer (the same markup), and makes the board's parts clickable.  The other players'
// moves (people's, bots', chance's) arrive as server-sent events from /api/play/ID/events.
// The seat's name and taking the seat back from a bot are sent as JSON too.
import { request, element } from "./api.js";
import { drawPicker, followSteps } from "./picker.js";

const root = document.getElementById("game");
const id = root.dataset.id;
const error = document.getElementById("error");
const form = document.getElementById("action-form");
const text = document.getElementById("action-text");
let busy = false;
const actions = document.getElementById("actions");
let moves = Number(root.dataset.moves); // the latest answer shown: an older one is dropped
let turn = null; // whose turn the picker was drawn for ("yours", "theirs", "over")

function show(game) {
  if (game.moves < moves) return;
  const now = game.over ? "over" : game.your_turn ? "yours" : "theirs";
  // The same position again (the event stream's first answer): the picker keeps its taps.
  const same = game.moves === moves && now === turn;
  moves = game.moves;
  turn = now;
  root.dataset.turn = now;
  document.getElementById("board").innerHTML = game.svg;
  document.getElementById("players").textContent = game.players.map((p) =>
    `seat ${p.seat} ${p.role}: ${p.player}`).join(" · ");
  document.getElementById("status").textContent = game.status;
  const mine = game.players[game.seat];
  document.getElementById("reclaim").hidden = game.over || mine.bot === null;
  const name = document.getElementById("name-text");
  if (document.activeElement !== name) name.value = mine.name ?? "";
  if (!same) drawPicker(actions, id, game.pick);
  form.hidden = !game.your_turn;
  const events = document.getElementById("events");
  events.replaceChildren(...game.events.map((line) => element("li", {}, line)));
  events.scrollTop = events.scrollHeight;
  const result = document.getElementById("result");
  result.hidden = !game.over;
  document.getElementById("moves").hidden = game.over;
  if (game.over) {
    const again = element("a", { class: "button", href: `/play/new?game=${encodeURIComponent(game.game)}` },
      "New game");
    result.replaceChildren(element("h2", {}, "Result"), element("p", {}, game.result.text), again);
    for (const f of game.forfeits) {
      result.append(element("p", {}, `seat ${f.seat} (${f.bot}) forfeited: ${f.reason}`));
    }
    document.getElementById("full-log").hidden = false;
    document.getElementById("log").replaceChildren(...game.log.map((step) =>
      element("li", {}, `${step.by}: ${step.action}` +
        (step.events.length ? ` (${step.events.join("; ")})` : ""))));
  }
}

async function play(action) {
  if (await send("action", { action })) text.value = "";
}

// POST /api/play/ID/WHAT with `body`, the answer shown; whether it was accepted.
async function send(what, body) {
  if (busy) return false;
  busy = true;
  error.textContent = "";
  root.classList.add("busy");
  try {
    show(await request("POST", `/api/play/${id}/${what}`, body));
    return true;
  } catch (problem) {
    error.textContent = problem.message;
    return false;
  } finally {
    busy = false;
    root.classList.remove("busy");
  }
}

// Every form of the page sends one action: the button's, else the list's or the box's.
root.addEventListener("submit", (event) => {
  if (event.target.closest("#hand-over")) return; // a plain form: the page comes back
  event.preventDefault();
  if (event.target.closest("#naming")) {
    send("name", { name: document.getElementById("name-text").value });
    return;
  }
  if (event.target.closest("#reclaim")) {
    send("reclaim", {});
    return;
  }
  const button = event.submitter;
  const chosen = button && button.name === "action" ? button : event.target.elements.action;
  const action = chosen.value.trim();
  if (action) play(action);
});
followSteps(actions, id, (problem) => { error.textContent = problem.message; });
root.addEventListener("click", (event) => {
  const node = event.target.closest("#board [data-action]");
  if (node) play(node.dataset.action);
});
const events = document.getElementById("events");
events.scrollTop = events.scrollHeight;
root.dataset.turn = document.getElementById("result").hidden
  ? (form.hidden ? "theirs" : "yours") : "over";
turn = root.dataset.turn;

// Every change of the game, as this seat sees it; the stream ends with the game.
const stream = new EventSource(`/api/play/${id}/events`);
stream.onmessage = (event) => {
  const game = JSON.parse(event.data);
  show(game);
  if (game.over) stream.close();
};
