// A big picture (an SVG of class "scrolls": the Scotland Yard map, the Camel Up track) fits
// its panel's width, and zooms: the buttons - + and fit, a pinch of two fingers, and, on a
// picture whose parts are numbered (its data-find-word names them, its parts' data-find
// numbers them), "find" a part by its number (zoomed to and ringed).  The panel
// scrolls to pan (a finger's drag).  Without this script the picture keeps a readable width
// and the panel scrolls.  The zoom survives each redraw of the panel (a move, an entry).
import { element } from "./api.js";

const MOST = 6; // the largest zoom: six times the panel's width

export function zoomable(board) {
  let scale = 1;
  const bar = element("div", { class: "zoom-bar", hidden: "" });
  const out = element("button", { type: "button", "aria-label": "zoom out" }, "−");
  const inward = element("button", { type: "button", "aria-label": "zoom in" }, "+");
  const fit = element("button", { type: "button", "aria-label": "fit the width" }, "fit");
  const finder = element("form", { class: "find-part", hidden: "" });
  const number = element("input", { type: "number", min: "1", inputmode: "numeric" });
  const said = element("span", { class: "hint", role: "status" });
  finder.append(number, element("button", { type: "submit" }, "find"), said);
  bar.append(out, inward, fit, finder);
  const frame = element("div", { class: "board-frame" }); // one item of the page's layout
  board.before(frame);
  frame.append(bar, board);

  const picture = () => board.querySelector("svg.scrolls");
  function apply(next, anchor) {
    // Zoom to ``next`` keeping ``anchor`` (a point of the panel, in pixels) where it is.
    const svg = picture();
    if (!svg) return;
    const at = anchor || { x: board.clientWidth / 2, y: board.clientHeight / 2 };
    const ratio = Math.min(MOST, Math.max(1, next)) / scale;
    const left = (board.scrollLeft + at.x) * ratio - at.x;
    const top = (board.scrollTop + at.y) * ratio - at.y;
    scale *= ratio;
    svg.style.width = `${scale * 100}%`;
    board.scrollLeft = left;
    board.scrollTop = top;
    board.dataset.zoom = scale.toFixed(2);
  }
  out.addEventListener("click", () => apply(scale / 1.5));
  inward.addEventListener("click", () => apply(scale * 1.5));
  fit.addEventListener("click", () => apply(1));
  finder.addEventListener("submit", (event) => {
    event.preventDefault();
    event.stopPropagation(); // not an action: the page's own forms never see it
    for (const old of board.querySelectorAll(".found")) old.classList.remove("found");
    const wanted = number.value.trim();
    const part = board.querySelector(`[data-find="${CSS.escape(wanted)}"]`);
    if (!part) {
      said.textContent = `no ${number.placeholder} ${wanted}`;
      return;
    }
    said.textContent = "";
    if (scale < 3) apply(3);
    part.classList.add("found");
    const place = part.getBoundingClientRect();
    const panel = board.getBoundingClientRect();
    board.scrollLeft += place.left + place.width / 2 - panel.left - board.clientWidth / 2;
    board.scrollTop += place.top + place.height / 2 - panel.top - board.clientHeight / 2;
  });

  // Two fingers: the zoom follows their distance, around their middle.
  let pinch = null;
  const spread = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX,
    touches[0].clientY - touches[1].clientY);
  board.addEventListener("touchstart", (event) => {
    if (event.touches.length === 2 && picture()) {
      pinch = { distance: spread(event.touches), scale };
      event.preventDefault();
    }
  }, { passive: false });
  board.addEventListener("touchmove", (event) => {
    if (!pinch || event.touches.length !== 2) return;
    event.preventDefault();
    const panel = board.getBoundingClientRect();
    const middle = { x: (event.touches[0].clientX + event.touches[1].clientX) / 2 - panel.left,
      y: (event.touches[0].clientY + event.touches[1].clientY) / 2 - panel.top };
    apply(pinch.scale * spread(event.touches) / pinch.distance, middle);
  }, { passive: false });
  board.addEventListener("touchend", () => { pinch = null; });

  function refresh() {
    // After a redraw: the controls for a big picture only, the zoom kept.
    const svg = picture();
    bar.hidden = !svg;
    board.classList.toggle("zoomable", Boolean(svg));
    const word = svg && svg.dataset.findWord;
    finder.hidden = !word;
    if (word) {
      number.placeholder = word;
      number.setAttribute("aria-label", `${word} number`);
    }
    if (svg) svg.style.width = `${scale * 100}%`;
  }
  new MutationObserver(refresh).observe(board, { childList: true });
  refresh();
}

const board = document.getElementById("board");
if (board) zoomable(board);
