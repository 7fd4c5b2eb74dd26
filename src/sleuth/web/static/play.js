// The game page: shows the human's view from /api/play/ID and sends the chosen actions.
import { request, element } from "./api.js";

const root = document.getElementById("game");
const id = root.dataset.id;
const error = document.getElementById("error");
const form = document.getElementById("action-form");
const text = document.getElementById("action-text");
let busy = false;
const FEW = 40; // a kind of action with more than this many is offered as a list

function groups(legal) {
  // The legal actions by their first word, in the order the game lists them.
  const found = new Map();
  for (const action of legal) {
    const word = action.split(" ")[0];
    if (!found.has(word)) found.set(word, []);
    found.get(word).push(action);
  }
  return [...found.entries()];
}

function show(game) {
  document.getElementById("board").innerHTML = game.svg;
  document.getElementById("players").textContent = game.players.map((p) =>
    `seat ${p.seat} ${p.role}: ${p.player}`).join(" · ");
  const status = document.getElementById("status");
  status.textContent = game.over ? "game over" : game.your_turn
    ? `you are the ${game.role}: your move` : `${game.to_move} to move`;
  const actions = document.getElementById("actions");
  actions.replaceChildren(...groups(game.legal).map(([word, list]) => {
    if (list.length <= FEW) {
      const row = element("div", { class: "group" });
      row.append(...list.map((action) => {
        const button = element("button", { type: "button", "data-action": action }, action);
        button.addEventListener("click", () => play(action));
        return button;
      }));
      return row;
    }
    // Many actions of one kind (every accusation, every placement): a list to choose from.
    const row = element("div", { class: "group" });
    const select = element("select", { "aria-label": word, "data-group": word });
    select.append(...list.map((action) => element("option", { value: action }, action)));
    const button = element("button", { type: "button", "data-action": list[0] },
      `${word} (${list.length} choices)`);
    select.addEventListener("change", () => { button.dataset.action = select.value; });
    button.addEventListener("click", () => play(select.value));
    row.append(select, button);
    return row;
  }));
  if (game.legal_count > game.legal.length) {
    actions.append(element("p", { class: "hint" },
      `${game.legal_count - game.legal.length} more actions: type one in the box`));
  }
  form.hidden = !game.your_turn;
  const events = document.getElementById("events");
  events.replaceChildren(...game.events.map((line) => element("li", {}, line)));
  events.scrollTop = events.scrollHeight;
  const result = document.getElementById("result");
  result.hidden = !game.over;
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
  for (const node of document.querySelectorAll("#board [data-action]")) {
    node.addEventListener("click", () => play(node.dataset.action));
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

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (text.value.trim()) play(text.value.trim());
});

request("GET", `/api/play/${id}`).then(show, (problem) => { error.textContent = problem.message; });
