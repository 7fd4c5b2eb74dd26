// A notepad page: the server draws it, and its forms work without this script.  The script
// takes them over: it sends entries, edits, undo, commands and logs to /api/assist/ID and draws
// the page's parts again from each answer, and makes the picture's parts clickable.
import { request, element } from "./api.js";

const root = document.getElementById("notepad");
const id = root.dataset.id;
const api = `/api/assist/${id}`;
const error = document.getElementById("error");
const message = document.getElementById("message");
const entryText = document.getElementById("entry-text");
const board = document.getElementById("board");
let busy = false;
let current = null;

function show(notepad) {
  current = notepad;
  document.getElementById("title").textContent = notepad.title;
  document.getElementById("status").textContent = notepad.finished
    ? "over: undo, edit or delete to go on" : `${notepad.entries.length} entries`;
  document.getElementById("entry-help").textContent = notepad.entry_help;
  document.getElementById("rendering").innerHTML = notepad.html;
  board.innerHTML = notepad.svg;
  board.hidden = !notepad.svg;
  message.textContent = notepad.message;
  document.getElementById("entry-form").hidden = notepad.finished;
  const section = document.getElementById("commands-section");
  section.hidden = notepad.commands.length === 0;
  document.getElementById("commands").replaceChildren(...notepad.commands.map((command) => {
    const button = element("button", { type: "button", title: command.help }, command.names[0]);
    button.addEventListener("click", () => {
      if (command.argument) {
        const text = document.getElementById("command-text");
        text.value = `${command.names[0]} `;
        text.placeholder = `${command.names[0]} ${command.argument}`;
        text.focus();
      } else {
        send("POST", `${api}/command`, { command: command.names[0] });
      }
    });
    return button;
  }));
  document.getElementById("history").replaceChildren(...notepad.entries.map(historyItem));
  document.getElementById("save").href = `${api}/save`;
  for (const node of board.querySelectorAll("[data-action]")) {
    node.addEventListener("click", () => send("POST", `${api}/entries`, { text: node.dataset.action }));
  }
  for (const node of board.querySelectorAll("[data-append]:not([data-action])")) {
    node.addEventListener("click", () => {  // one word at the end of the entry
      entryText.value = `${entryText.value.trim()} ${node.dataset.append}`.trim();
      entryText.focus();
    });
  }
  for (const node of board.querySelectorAll("[data-collect]:not([data-action])")) {
    node.addEventListener("click", () => {  // one item of an entry that lists several
      const items = entryText.value.split(/[ ,]+/).filter(Boolean);
      if (!items.includes(node.dataset.collect)) items.push(node.dataset.collect);
      entryText.value = items.join(",");
      entryText.focus();
    });
  }
}

function historyItem(text, index) {
  const number = index + 1;
  const item = element("li", { "data-entry": String(number) });
  const words = element("span", { class: "entry" }, text);
  const edit = element("button", { type: "button", class: "small", title: "change this entry" }, "edit");
  const insert = element("button", { type: "button", class: "small", title: "a missed entry before this one" }, "insert");
  const remove = element("button", { type: "button", class: "small", title: "remove this entry" }, "delete");
  edit.addEventListener("click", () => inline(item, text, (value) =>
    send("PUT", `${api}/entries/${number}`, { text: value })));
  insert.addEventListener("click", () => inline(item, "", (value) =>
    send("POST", `${api}/entries/${number}`, { text: value })));
  remove.addEventListener("click", () => send("DELETE", `${api}/entries/${number}`));
  item.append(words, " ", edit, insert, remove);
  return item;
}

function inline(item, text, done) {
  const form = element("form", { class: "line-form" });
  const input = element("input", { value: text, "aria-label": "entry text" });
  const cancel = element("button", { type: "button" }, "cancel");
  form.append(input, element("button", { type: "submit" }, "ok"), cancel);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) done(input.value.trim());
  });
  cancel.addEventListener("click", () => show(current));
  item.append(form);
  input.focus();
}

async function send(method, url, body) {
  if (busy) return false;
  busy = true;
  error.textContent = "";
  root.classList.add("busy");
  try {
    show(await request(method, url, body));
    return true;
  } catch (problem) {
    error.textContent = problem.message;
    return false;
  } finally {
    busy = false;
    root.classList.remove("busy");
  }
}

document.getElementById("entry-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = entryText.value.trim();
  if (text && await send("POST", `${api}/entries`, { text })) entryText.value = "";
});

document.getElementById("command-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("command-text");
  const command = input.value.trim();
  if (command && await send("POST", `${api}/command`, { command })) input.value = "";
});

document.getElementById("undo-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send("POST", `${api}/undo`, { count: Number(document.getElementById("undo-count").value) || 1 });
});

// A chosen file is loaded at once: the file box and its button are for a page without scripts.
const loadFile = document.getElementById("load-file");
loadFile.hidden = true;
document.getElementById("load-send").hidden = true;
document.getElementById("load-form").addEventListener("submit", (event) => event.preventDefault());
loadFile.addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) await send("POST", `${api}/load`, { log: await file.text() });
  event.target.value = "";
});

// Each switch of the picture (the game's page plug-in names them): off, the picture's panel
// has the class hide-NAME, and the picture's own style says what that hides.
for (const box of document.querySelectorAll("input[data-switch]")) {
  box.addEventListener("change", () =>
    board.classList.toggle(`hide-${box.dataset.switch}`, !box.checked));
}

request("GET", api).then(show, (problem) => { error.textContent = problem.message; });
