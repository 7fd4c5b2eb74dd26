// The game page: the server draws it, and its forms play without this script.  The script
// takes them over: it sends each action to /api/play/ID/action and draws the page again from
// the answer (the same markup), and makes the board's parts clickable.
import { request, element } from "./api.js";
import { drawPicker, followSteps } from "./picker.js";

const root = document.getElementById("game");
const id = root.dataset.id;
const error = document.getElementById("error");
const form = document.getElementById("action-form");
const text = document.getElementById("action-text");
let busy = false;
const actions = document.getElementById("actions");

function show(game) {
  document.getElementById("board").innerHTML = game.svg;
  document.getElementById("players").textContent = game.players.map((p) =>
    `seat ${p.seat} ${p.role}: ${p.player}`).join(" · ");
  const status = document.getElementById("status");
  status.textContent = game.over ? "game over" : game.your_turn
    ? `you are the ${game.role}: your move` : `${game.to_move} to move`;
  drawPicker(actions, id, game.pick);
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
  if (busy) return;
  busy = true;
  error.textContent = "";
  root.classList.add("busy");
  try {
    show(await request("POST", `/api/play/${id}/action`, { action }));
    text.value = "";
  } catch (problem) {
    error.textContent = problem.message;
  } finally {
    busy = false;
    root.classList.remove("busy");
  }
}

// Every form of the page sends one action: the button's, else the list's or the box's.
root.addEventListener("submit", (event) => {
  event.preventDefault();
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
