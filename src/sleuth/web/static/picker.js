// The tap picker (sleuth.web.picker): the server draws it, each step a link to the page with
// the ids tapped so far (so it works without scripts).  This script fetches each step from
// /api/play/ID/pick instead and draws it in place, as picker.html does; a choice that
// completes an action is a submit button of that action, which play.js plays.
import { request, element } from "./api.js";

function groups(choices) {
  // The rows, as the server makes them (play.choice_groups): the choices whose text starts
  // with one word share a row, and those alone of their word next to each other share one.
  const found = new Map();
  for (const choice of choices) {
    const word = choice.text.split(" ")[0];
    if (!found.has(word)) found.set(word, []);
    found.get(word).push(choice);
  }
  const rows = [];
  let alone = false;
  for (const group of found.values()) {
    if (group.length === 1 && alone) {
      rows[rows.length - 1].push(...group);
    } else {
      rows.push([...group]);
      alone = group.length === 1;
    }
  }
  return rows;
}

export function drawPicker(box, id, pick) {
  const page = `/play/${id}`;
  const parts = [];
  if (pick.steps.length) {
    const back = pick.prefix.slice(0, -1).join(",");
    const picked = element("p", { class: "picked" });
    picked.append(element("span", { id: "picked" }, pick.steps.join(" · ")), " ",
      element("a", { class: "button back", href: back ? `${page}?pick=${back}` : page,
        "data-pick": back }, "back"));
    parts.push(picked);
  }
  for (const choices of groups(pick.choices)) {
    const row = element("form", { class: "group", method: "post", action: `${page}/action` });
    row.append(...choices.map((choice) => {
      if (choice.action !== null) {
        const button = element("button", { type: "submit", name: "action", value: choice.action,
          "data-action": choice.action }, choice.text);
        if (choice.action !== choice.text) button.title = choice.action;
        return button;
      }
      const next = [...pick.prefix, choice.id].join(",");
      return element("a", { class: "button step", href: `${page}?pick=${next}`,
        "data-pick": next }, `${choice.text} …`);
    }));
    parts.push(row);
  }
  if (pick.more) {
    parts.push(element("p", { class: "hint" }, `${pick.more} more choices: type an action in the box`));
  }
  box.dataset.prefix = pick.prefix.join(",");
  box.replaceChildren(...parts);
}

export function followSteps(box, id, failed) {
  // A tap on a step (or back) draws the next step in place of following the link.
  box.addEventListener("click", async (event) => {
    const link = event.target.closest("a[data-pick]");
    if (!link) return;
    event.preventDefault();
    try {
      drawPicker(box, id, await request("GET", `/api/play/${id}/pick?ids=${link.dataset.pick}`));
    } catch (problem) {
      failed(problem);
    }
  });
}
