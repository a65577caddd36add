// The table in words, for a reader who asks (the keys H, T and R, or "hand", "table", "moves" in
// text mode) and for the seats' accessible names: your hand with what you may play, the table
// (the top card, the colour, the direction, the side, the piles, every seat) and the last moves,
// all in the page's language and with the log's own words.

import { colorWords, faceOf, faceTitle } from "./cards.js";
import { say, t } from "./i18n.js";
import { groupActions, waitingWords } from "./prompt.js";

/** How many lines of the log "the last moves" reads. */
const LAST_LINES = 6;

/**
 * @typedef {Object} Seen what the readout needs of the table
 * @property {import("./types").Observation} obs the seat's observation
 * @property {import("./types").Room} room the room
 * @property {number|null} me the reader's seat
 * @property {string[]} names the seats' names as the table shows them ("You" for the reader)
 * @property {boolean} myTurn whether the open decision is the reader's
 * @property {number} side the side in play (0 light, 1 dark)
 */

/**
 * A seat in words, as its accessible name says it: name, cards (and UNO said or not at one),
 * points, presence or level, and what it is deciding now.
 * @param {Seen} seen the table
 * @param {number} seat the seat
 * @param {string} status the seat's presence or bot level ("" when none)
 * @returns {string}
 */
export function seatWords(seen, seat, status) {
  const { obs, room, names, me } = seen;
  const count = obs.hand_sizes[seat];
  const active = obs.to_act === seat && room.phase === "playing" && !obs.over;
  const uno = count === 1 ? t(obs.uno_exposed === seat ? "seat.no_uno" : "table.uno") : "";
  const parts = [names[seat], t("n.cards", { count }), uno, t("n.points", { count: obs.scores[seat] }), status];
  if (active) parts.push(waitingWords(obs, seat, names, me));
  return parts.filter(Boolean).join(t("list.separator"));
}

/**
 * The reader's hand: every card by its name, the ones that may be played now marked.
 * @param {Seen} seen the table
 * @returns {string}
 */
export function handWords(seen) {
  const { obs, myTurn, side } = seen;
  if (seen.me === null) return t("read.no_hand");
  const { byCard } = groupActions(obs);
  const cards = obs.hand.map((text) => {
    const title = faceTitle(faceOf(text, side));
    return myTurn && byCard.has(text) ? t("read.card_playable", { card: title }) : title;
  });
  return t("read.hand", { cards: t("n.cards", { count: cards.length }), list: cards.join(t("list.separator")) });
}

/**
 * What a turn is played on, in words: the top card and the colour in play (said with the
 * reader's turn, so that nobody must ask for the table to know what to play on).
 * @param {Seen} seen the table
 * @returns {string[]}
 */
export function pileWords(seen) {
  const { obs } = seen;
  const parts = [];
  if (obs.top) parts.push(t("read.top", { card: faceTitle(faceOf(obs.top, seen.side)) }));
  parts.push(`${t("table.color_in_play")}: ${colorWords(obs.color)}`);
  return parts;
}

/**
 * The table: the top card, the colour in play, the direction, the side, a stacked draw, the
 * draw pile, then every seat in the order of play from the reader's left.
 * @param {Seen} seen the table
 * @param {function(number): string} statusOf a seat's presence or level
 * @returns {string}
 */
export function tableWords(seen, statusOf) {
  const { obs, me } = seen;
  const parts = pileWords(seen);
  parts.push(t(obs.direction === "clockwise" ? "direction.clockwise" : "direction.counterclockwise"));
  if (obs.backs !== undefined) parts.push(t("table.side_value", { side: t(`side.${obs.side}`) }));
  if (obs.stack) parts.push(t("n.read.stack", { count: obs.stack }));
  parts.push(obs.launcher ? t("n.table.launcher", { count: obs.draw_size }) : t("n.table.draw_pile", { count: obs.draw_size }));
  const n = obs.players;
  const from = me === null ? 0 : me + 1;
  for (let i = 0; i < n; i++) {
    const seat = (from + i) % n;
    parts.push(seatWords(seen, seat, statusOf(seat)));
  }
  return parts.join(". ");
}

/**
 * The last lines of the log, oldest first.
 * @param {{line: import("./types").Line}[]} log the game's log so far
 * @param {string[]} names the seats' names
 * @param {number | null} me the reader's seat
 * @returns {string}
 */
export function movesWords(log, names, me) {
  if (!log.length) return t("read.no_moves");
  const lines = log.slice(-LAST_LINES).map((entry) => say(entry.line, names, me));
  return t("read.moves", { lines: lines.join(" ") });
}
