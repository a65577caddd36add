// What a screen reader hears: two live regions kept in the page for its whole life (outside every
// part that is drawn again), one polite for what happened (every line of the log, once, in the
// reader's language) and one assertive for what cannot wait (your turn, a player you may catch,
// a challenge to answer). Nothing else on the page is a live region that speaks of the game, so
// nothing is said twice.

import { h } from "./dom.js";

/** How many lines the polite region keeps (older ones leave it silently). */
const KEPT = 30;

/** @type {HTMLElement|null} */
let politeBox = null;
/** @type {HTMLElement|null} */
let urgentBox = null;

/**
 * The two regions, made on first use and appended to <body>.
 * @returns {{polite: HTMLElement, urgent: HTMLElement}}
 */
function regions() {
  if (!politeBox || !politeBox.isConnected) {
    politeBox = h("div#announce-polite.sr-only",
      { role: "log", "aria-live": "polite", "aria-relevant": "additions", "data-region": "announce" });
    document.body.append(politeBox);
  }
  if (!urgentBox || !urgentBox.isConnected) {
    urgentBox = h("div#announce-urgent.sr-only", { "aria-live": "assertive", "aria-atomic": "true", "data-region": "announce-urgent" });
    document.body.append(urgentBox);
  }
  return { polite: politeBox, urgent: urgentBox };
}

/**
 * Say `text` politely: it is added to the polite region as a line of its own.
 * @param {string} text the words
 */
export function announce(text) {
  if (!text) return;
  const { polite } = regions();
  polite.append(h("p", {}, text));
  while (polite.children.length > KEPT) polite.firstElementChild?.remove();
}

/**
 * Say `text` at once, interrupting (a decision that is yours, a catch you may make). The same
 * words said again are said again.
 * @param {string} text the words
 */
export function announceUrgent(text) {
  if (!text) return;
  const { urgent } = regions();
  urgent.textContent = "";
  // A new node in a cleared region is a change even when the words are the same.
  setTimeout(() => urgent.append(h("p", {}, text)), 30);
}

/** Empty both regions (a page that leaves the table). */
export function silence() {
  if (politeBox) politeBox.replaceChildren();
  if (urgentBox) urgentBox.replaceChildren();
}
