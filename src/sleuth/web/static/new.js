// The new-game form: sends the choices as JSON and opens the game's page (without this
// script the browser posts the form itself and the server sends it to the game's page).
// While bot lines are typed, it shows the options of each bot named and the largest value of
// each numeric one here, and warns of a value over it (the server refuses it when the game
// starts).
import { element, request } from "./api.js";

const form = document.getElementById("new-game");
const error = document.getElementById("error");
const bots = document.getElementById("bots");
const botCheck = document.getElementById("bot-check");

// Each bot's options by bot name, read from the page's bot table: the server writes them and
// their bounds from the data GET /api/games serves, so the page holds no numbers of its own.
const botOptions = new Map(
  [...document.querySelectorAll("#bot-list tr[data-bot]")].map((row) => [
    row.dataset.bot,
    [...row.querySelectorAll(".bot-option")].map((option) => ({
      name: option.dataset.option,
      most: option.dataset.most ?? null, // the bound as the server wrote it (exact for ints)
      bound: option.querySelector(".most")?.textContent ?? "", // "at most 5,000"
    })),
  ]),
);

// Whether the typed value is a number over the bound `most` (whole numbers compared exactly,
// as a bound may be past JavaScript's exact integers); text that is no number is left to the
// server, which names what is wrong with it.
function over(value, most) {
  const whole = /^[+-]?\d+$/;
  if (whole.test(value) && whole.test(most)) return BigInt(value) > BigInt(most);
  const number = Number(value);
  return value !== "" && Number.isFinite(number) && number > Number(most);
}

function checkBots() {
  botCheck.replaceChildren();
  for (const line of bots.value.split("\n")) {
    const at = line.indexOf("=");
    if (at < 0) continue; // the submit says how to write a line
    const seat = line.slice(0, at).trim();
    const [name, ...settings] = line.slice(at + 1).split(":").map((part) => part.trim());
    const options = botOptions.get(name);
    if (!options) continue; // the server names an unknown bot when the game starts
    const ranges = options.map((o) => (o.bound ? `${o.name} ${o.bound}` : o.name));
    const listed = ranges.length ? ranges.join(", ") : "no options";
    botCheck.append(element("span", { class: "hint" }, `seat ${seat}, ${name}: ${listed}`));
    for (const setting of settings) {
      const eq = setting.indexOf("=");
      const option = options.find((o) => o.name === setting.slice(0, eq).trim());
      if (eq < 0 || !option || option.most === null) continue;
      const value = setting.slice(eq + 1).trim();
      if (!over(value, option.most)) continue;
      const warning =
        `seat ${seat}, ${name}: ${option.name}=${value} is too large here, ` +
        `${option.name} ${option.bound}`;
      botCheck.append(element("span", { class: "error" }, warning));
    }
  }
}

bots.addEventListener("input", checkBots);
checkBots(); // the browser may keep typed text over a reload

// outline the field the server blames, as the page sent without this script does
function blame(field) {
  for (const marked of form.querySelectorAll("[aria-invalid]")) {
    marked.removeAttribute("aria-invalid");
  }
  const culprits = field === "options"
    ? form.querySelectorAll("input[name^='option:']")
    : form.querySelectorAll(`[name="${CSS.escape(field || "")}"]`);
  for (const culprit of culprits) culprit.setAttribute("aria-invalid", "true");
}

// The seat=WORD lines of a text box (bots, friends' names) by seat, as the server reads the
// form sent without this script; null, with the message shown, for a line it would refuse.
function lines(data, field, word) {
  const found = {};
  for (const line of String(data.get(field)).split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf("=");
    if (at < 0) { error.textContent = `${word} line "${line.trim()}": write seat=${word}`; break; }
    const seat = line.slice(0, at).trim();
    if (seat in found) {
      error.textContent = `${word} line "${line.trim()}": seat ${seat} has a ${word} already`;
      break;
    }
    found[seat] = line.slice(at + 1).trim();
  }
  return error.textContent ? null : found;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  blame(null);
  const data = new FormData(form);
  const choice = { game: form.dataset.game, role: data.get("role"), options: {}, bots: {} };
  // only the options changed from their defaults (as the server reads the form sent without
  // this script): the server fills in the others, and the seat count a role needs (Scotland
  // Yard's one-detective seats) when it is not given
  for (const input of form.querySelectorAll("input[name^='option:']")) {
    const value = input.value.trim();
    if (value !== input.dataset.default.trim()) choice.options[input.name.slice(7)] = value;
  }
  choice.bots = lines(data, "bots", "bot");
  if (choice.bots === null) return;
  choice.names = lines(data, "names", "name");
  if (choice.names === null) return;
  const name = String(data.get("name")).trim();
  if (name) choice.name = name;
  // the seat and seed as typed: the server reads them as whole numbers and names one that is
  // not (a JavaScript number would turn "abc" into null, and round a seed beyond 2**53)
  const seat = String(data.get("seat")).trim();
  if (seat) choice.seat = seat;
  // the friends' seats as typed, apart by commas or spaces (the server names a bad one)
  const people = String(data.get("people")).split(/[\s,]+/).filter((word) => word !== "");
  if (people.length) choice.people = people;
  const seed = String(data.get("seed")).trim();
  if (seed) choice.seed = seed;
  try {
    const game = await request("POST", "/api/play", choice);
    window.location.href = `/play/${game.id}`;
  } catch (problem) {
    error.textContent = problem.message; // the choices stay as they were, to be corrected
    blame(problem.field);
    error.scrollIntoView({ block: "nearest" });
  }
});
