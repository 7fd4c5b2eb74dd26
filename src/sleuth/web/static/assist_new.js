// The /assist page: the new-notepad forms (the game's options and the assistant's settings)
// and the forget buttons of this session's notepads.  Both work without this script (they
// post to /assist and /assist/ID/forget); it sends them to the JSON API instead.
import { request } from "./api.js";

for (const form of document.querySelectorAll("form.new-notepad")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector(".error");
    error.textContent = "";
    const choice = { game: form.dataset.game, options: {}, params: {} };
    for (const [name, value] of new FormData(form).entries()) {
      const text = String(value).trim();
      if (name.startsWith("option:")) choice.options[name.slice(7)] = text;
      if (name.startsWith("param:") && text) choice.params[name.slice(6)] = text;
    }
    try {
      const notepad = await request("POST", "/api/assist", choice);
      window.location.href = `/assist/${notepad.id}`;
    } catch (problem) {
      error.textContent = problem.message;
    }
  });
}

for (const button of document.querySelectorAll("button.forget")) {
  button.addEventListener("click", async (event) => {
    event.preventDefault();
    await request("DELETE", `/api/assist/${button.dataset.id}`);
    button.closest("li").remove();
  });
}
