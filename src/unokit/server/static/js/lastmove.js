// The last move in words, for the caption beside the piles: what the move was ("Greta played
// Wild Draw Two — blue") and what it did to the reader ("you draw 2", "your turn is lost"),
// said from the server's lines in the page's language. The words of a move that concerns
// someone else are the log's own.

import { say, t } from "./i18n.js";

/** Lines that only set the scene of a deal: left out of the caption when there is more to say. */
const SCENE = new Set(["event.dealer", "event.round_start"]);

/**
 * How many cards a line's `cards` parameter stands for: a list of faces, or a count.
 * @param {*} cards the parameter as the server sent it: any, a list of faces or a line that counts them
 * @returns {number}
 */
function cardCount(cards) {
  if (Array.isArray(cards)) return cards.length;
  if (cards && typeof cards === "object" && cards.params) return Number(cards.params.count) || 0;
  return 0;
}

/**
 * What a line says to the reader when it is about the reader, in the reader's own words ("you
 * draw 2"); null when the line is not about the reader (or says it well enough already).
 * @param {import("./types").Line} line
 * @param {number|null} me the reader's seat
 * @param {string[]} names the seats' names
 * @returns {string|null}
 */
export function effectOnYou(line, me, names) {
  const params = line.params || {};
  if (me === null || me === undefined) return null;
  if (line.key === "event.draw.reason" && params.player === me) {
    return t("n.last.you_draw", { count: cardCount(params.cards) });
  }
  if (line.key === "event.press.for" && params.target === me) {
    return t("n.last.you_take", { count: cardCount(params.cards) });
  }
  if (line.key === "event.skip" && params.player === me) return t("last.you_skipped");
  if (line.key === "event.trade" && params.target === me) {
    return t("last.your_hand_traded", { player: names[/** @type {number} */ (params.player)] });
  }
  return null;
}

/**
 * The caption of a move: its first line, then each further line (about the reader in the
 * reader's words), in the page's language.
 * @param {import("./types").Line[]} lines the move's lines, as the server sent them
 * @param {number|null} me the reader's seat (null: a spectator)
 * @param {string[]} names the seats' names as the table shows them ("You" for the reader)
 * @returns {string}
 */
export function lastMoveWords(lines, me, names) {
  if (!lines || !lines.length) return "";
  const told = lines.filter((line) => !SCENE.has(line.key));
  const shown = told.length ? told : lines;
  const [first, ...rest] = shown;
  const main = effectOnYou(first, me, names) || say(first, names, me);
  if (!rest.length) return main;
  const effects = rest.map((line) => effectOnYou(line, me, names) || say(line, names, me));
  return t("last.move_effects", { line: main, text: effects.join(t("last.separator")) });
}
