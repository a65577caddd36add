// The decision in words and its controls, read from the seat's observation and legal_actions
// (the engine's text notation). Nothing here decides a rule: a card is playable because an
// action that plays it is listed, and every button sends one of the listed actions.

import { catalog, colorTitle, colorWords, faceOf, faceTitle, isColor, parseFace, symbolGlyph } from "./cards.js";
import { N_, say, t } from "./i18n.js";

/**
 * @typedef {{verb: string, text: string, card: string | null, color: string | null, uno: boolean, seat: number | null}} ParsedAction
 *   an action text of legal_actions, read
 */

/**
 * Read one action text of legal_actions against the hand: {verb, card, color, uno, seat, text}.
 * @param {string} text
 * @param {string[]} hand
 * @returns {ParsedAction}
 */
export function parseAction(text, hand) {
  const parts = text.trim().split(/\s+/);
  const verb = parts[0];
  let rest = parts.slice(1);
  /** @type {ParsedAction} */
  const out = { verb, text, card: null, color: null, uno: false, seat: null };
  if (rest.length && rest[rest.length - 1] === "uno") {
    out.uno = true;
    rest = rest.slice(0, -1);
  }
  if (verb === "play" || verb === "discard") {
    const whole = rest.join(" ");
    if (hand.includes(whole)) out.card = whole;
    else if (rest.length > 1 && isColor(rest[rest.length - 1])) {
      out.card = rest.slice(0, -1).join(" ");
      out.color = rest[rest.length - 1];
    } else out.card = whole;
  } else if (verb === "play_drawn" || verb === "color") {
    if (rest.length && isColor(rest[0])) out.color = rest[0];
  } else if (verb === "trade" || verb === "catch" || verb === "target") {
    out.seat = Number(rest[0]);
  }
  return out;
}

/**
 * Group legal actions: per hand card (plays or discards), and the other controls.
 * @param {import("./types").Observation} obs
 * @returns {{byCard: Map<string, ParsedAction[]>, other: ParsedAction[]}}
 */
export function groupActions(obs) {
  /** @type {Map<string, ParsedAction[]>} */
  const byCard = new Map();
  /** @type {ParsedAction[]} */
  const other = [];
  for (const text of obs.legal_actions) {
    const action = parseAction(text, obs.hand);
    if (action.card !== null && obs.hand.includes(action.card)) {
      if (!byCard.has(action.card)) byCard.set(action.card, []);
      /** @type {ParsedAction[]} */ (byCard.get(action.card)).push(action);
    } else other.push(action);
  }
  return { byCard, other };
}

/** Whether the open choose_player decision comes from a Seven (Seven-O) rather than a Trade
 * Hands card: the card that asked for it is the top of the discard pile.
 * @param {import("./types").Observation} obs
 */
function sevenO(obs) {
  return obs.top ? parseFace(obs.top).kind === "7" : false;
}

/**
 * What the seat to act is doing: "Waiting for Bo (to name a colour)…", "Waiting for you (…)…"
 * when it is the reader's.
 * @param {import("./types").Observation} obs
 * @param {number} seat the seat to act
 * @param {string[]} names the seats' names
 * @param {number | null} me the reader's seat
 * @returns {string}
 */
export function waitingWords(obs, seat, names, me) {
  return say({ key: N_("table.waiting_for"), params: { player: seat, todo: todoWords(obs) } }, names, me);
}

/**
 * What the seat to act is doing, in a few words ("to name a colour").
 * @param {import("./types").Observation} obs
 * @returns {string}
 */
export function todoWords(obs) {
  if (obs.decision === "choose_player" && sevenO(obs)) return t("decision.choose_player.seven.todo");
  return t(`decision.${obs.decision}.todo`);
}

/** How each fact a question's wording may depend on is read from the observation: the same
 * readings as the server's (unokit.i18n.prompts.FACTS; the registry test holds the two to the
 * same facts).
 * @type {Record<string, (obs: import("./types").Observation) => boolean>}
 */
const PROMPT_FACTS = {
  launcher: (obs) => Boolean(obs.launcher),
  force_play: (obs) => Boolean(obs.options.force_play),
  seven: (obs) => sevenO(obs),
  discarded: (obs) => ((obs.pending || {}).discarded || []).length > 0,
};

/**
 * The open decision's facts (a question is only asked while a decision is open).
 * @param {import("./types").Observation} obs
 */
const pendingOf = (obs) => /** @type {import("./types").Pending} */ (obs.pending);

/**
 * What the challenged Wild Draw card makes a seat draw, as a line, with `extra` cards more (a
 * failed challenge's): the stacked total or the card's own count, or for a card that draws until
 * its colour, that (unokit.i18n.prompts._draws).
 * @param {import("./types").Observation} obs
 * @param {number} extra
 * @returns {import("./types").Line}
 */
function drawsLine(obs, extra) {
  const pending = pendingOf(obs);
  const kind = /** @type {{draws: number, until: string}} every kind is in the catalogue */ (
    catalog().kinds.find((k) => k.name === pending.card));
  if (!obs.stack && kind.until === "color") {
    return extra ? { key: N_("n.challenge.until_color_and"), params: { color: pending.color, count: extra } }
      : { key: N_("challenge.until_color"), params: { color: pending.color } };
  }
  return { key: N_("n.cards"), params: { count: (obs.stack || kind.draws) + extra } };
}

/**
 * How each value a question shows is read from the observation (unokit.i18n.prompts.VALUES).
 * @type {Record<string, (obs: import("./types").Observation, side: number) => unknown>}
 */
const PROMPT_VALUES = {
  total: (obs) => obs.stack,
  card: (obs, side) => faceOf(/** @type {string} */ (pendingOf(obs).card), side),
  by: (obs) => pendingOf(obs).by,
  kind: (obs) => pendingOf(obs).card,
  color: (obs) => pendingOf(obs).color,
  count: (obs) => pendingOf(obs).count || 1,
  cards: (obs, side) => (pendingOf(obs).discarded || []).map((c) => faceOf(c, side)),
  draws: (obs) => drawsLine(obs, 0),
  penalty: (obs) => drawsLine(obs, catalog().challenge_extra),
};

/** The question of the reader's own decision: the first of the decision's wordings (the
 * server's catalogue "prompts", the terminal's too) whose facts hold, said with its values.
 * @param {import("./types").Observation} obs
 * @param {string[]} names
 * @param {number} side
 * @returns {string}
 */
export function promptMessage(obs, names, side) {
  const wordings = catalog().prompts[/** @type {string} a decision is open */ (obs.decision)];
  const wording = wordings.find((w) => w.when.every((fact) => PROMPT_FACTS[fact](obs))) || wordings[wordings.length - 1];
  const params = Object.fromEntries(wording.params.map((name) => [name, PROMPT_VALUES[name](obs, side)]));
  return say({ key: wording.key, params }, names);
}

/**
 * The words on the button of a (non-card) action.
 * @param {Pick<ParsedAction, "verb" | "color"> & Partial<ParsedAction>} action (a colour's button: its verb and colour alone)
 * @param {import("./types").Observation} obs
 * @param {string[]} names
 * @param {number} side
 * @returns {string}
 */
export function actionLabel(action, obs, names, side) {
  /** @type {import("./types").Pending} */
  const pending = obs.pending || {};
  const stacked = obs.decision === "stack";
  const seat = /** @type {number} a trade's, a target's or a catch's */ (action.seat);
  switch (action.verb) {
    case "draw":
    case "press":
      if (stacked) return t(obs.launcher ? "n.action.press_all" : "n.action.draw_all", { count: obs.stack });
      if (action.verb === "draw" && obs.options.draw_until_playable) return t("action.draw.until");
      return t(action.verb === "draw" ? "action.draw" : "action.press");
    case "play_drawn":
      return pending.card ? t("table.play_the", { card: faceTitle(faceOf(pending.card, side)) }) : t("action.play_drawn");
    case "trade": {
      const seven = sevenO(obs);
      return t(seven ? "action.swap.cards" : "action.trade.cards",
        { target: names[seat], cards: t("n.cards", { count: obs.hand_sizes[seat] }) });
    }
    case "target":
      return t("action.target", { target: names[seat] });
    case "catch":
      return t("action.catch", { target: names[seat] });
    case "color":
      return `${symbolGlyph(action.color)} ${colorTitle(action.color)}`;
    default:
      return t(`action.${action.verb}`);
  }
}

/**
 * The spoken name of a colour button: "Name red (circle)".
 * @param {string | null} color
 * @returns {string}
 */
export function colorLabel(color) {
  return t("table.name_color", { color: colorWords(color) });
}
