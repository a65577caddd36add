// The page around every screen: the connection status and the buttons of the bar at the top.

import { clear } from "./dom.js";

/** Say how the connection is; `state` (connecting, lost, connected, note) is kept on the
 * element as data-state for styles and tests.
 * @param {string} text
 * @param {string} [state]
 */
export function setStatus(text, state = "") {
  const node = document.getElementById("status");
  if (!node) return;
  // Connected, the status is a green dot (its words in its title); any trouble is written out.
  node.textContent = state === "connected" ? "" : text;
  node.title = text;
  node.setAttribute("aria-label", text);
  node.dataset.state = state;
}

/**
 * The current page's own buttons in the bar (the room's code, help, the drawer).
 * @param {HTMLElement[]} buttons
 */
export function pageTools(buttons) {
  const box = document.getElementById("page-tools");
  if (!box) return;
  clear(box).append(...buttons);
}
