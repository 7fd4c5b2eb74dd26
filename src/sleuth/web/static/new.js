// The new-game form: sends the choices as JSON and opens the game's page.
import { request } from "./api.js";

const form = document.getElementById("new-game");
const error = document.getElementById("error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const data = new FormData(form);
  const choice = { game: form.dataset.game, role: data.get("role"), options: {}, bots: {} };
  for (const [name, value] of data.entries()) {
    if (name.startsWith("option:")) choice.options[name.slice(7)] = String(value).trim();
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
