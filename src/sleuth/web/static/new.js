// The new-game form: sends the choices as JSON and opens the game's page.
import { request } from "./api.js";

const form = document.getElementById("new-game");
const error = document.getElementById("error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const data = new FormData(form);
  const choice = { game: form.dataset.game, role: data.get("role"), options: {}, bots: {} };
  // only the options changed from their defaults: the server fills in the others, and the
  // seat count a role needs (Scotland Yard's one-detective seats) when it is not given
  for (const input of form.querySelectorAll("input[name^='option:']")) {
    const value = input.value.trim();
    if (value !== input.defaultValue.trim()) choice.options[input.name.slice(7)] = value;
  }
  for (const line of String(data.get("bots")).split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf("=");
    if (at < 0) { error.textContent = `bot line "${line}": write seat=bot`; return; }
    choice.bots[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  const seat = String(data.get("seat")).trim();
  if (seat) choice.seat = Number(seat);
  const seed = String(data.get("seed")).trim();
  if (seed) choice.seed = Number(seed);
  try {
    const game = await request("POST", "/api/play", choice);
    window.location.href = `/play/${game.id}`;
  } catch (problem) {
    error.textContent = problem.message;
  }
});
