// The moves text mode offers at a table (textmode.js types them): what the buttons and the cards
// offer now, each in the words of its button ("Play Red 5", "Draw a card", "Catch Bo: no UNO!")
// and in the engine's notation ("play red 5", "draw", "catch 1"), and the readouts ("hand",
// "table", "moves"). Nothing here decides a rule: every move sends one of the legal actions.

import { colorTitle, faceOf, faceTitle } from "./cards.js";
import { N_, colorName, t } from "./i18n.js";
import { actionLabel, groupActions } from "./prompt.js";

/** @typedef {import("./textmode.js").Move} Move */

/** The words that read part of the table out ("hand|my cards": the first is shown), by what. */
const READ_WORDS = { hand: N_("text.read.hand"), table: N_("text.read.table"), moves: N_("text.read.moves") };

/**
 * The notation of an action in words ("play wild_draw_four red" → "play wild draw four red").
 * @param {string} text an action in the notation
 * @returns {string}
 */
function notation(text) {
  return text.replace(/_/g, " ");
}

/**
 * A move made of its label, the other ways of writing it and what it does.
 * @param {string} label
 * @param {string[]} more
 * @param {function(): void} run
 * @param {string} [group]
 * @returns {Move}
 */
function move(label, more, run, group = "") {
  return { label, phrases: [label, ...more], run, group };
}

/**
 * The readouts, by their words in the page's language and in English.
 * @param {import("./table.js").TableView} table
 * @returns {Move[]}
 */
function readMoves(table) {
  return Object.entries(READ_WORDS).map(([what, key]) => {
    const [label, ...more] = t(key).split("|");
    return move(label, [...more, what], () => table.readOut(what));
  });
}

/**
 * The plays (or discards) of the reader's cards: each card, and each colour it may name.
 * @param {import("./table.js").TableView} table
 * @param {import("./types").Observation} obs the observation
 * @param {number} side the side in play
 * @returns {Move[]}
 */
function cardMoves(table, obs, side) {
  const out = [];
  for (const [card, actions] of groupActions(obs).byCard) {
    const title = faceTitle(faceOf(card, side));
    const verb = actions[0].verb === "discard" ? "action.discard" : "action.play";
    const plain = actions.filter((a) => !a.uno);
    const prompt = t("table.color_for", { card: title });
    out.push(move(t(verb, { card: title }), [notation(`${actions[0].verb} ${card}`)], () => table.choose(actions, prompt)));
    for (const action of plain.filter((a) => a.color)) {
      const label = t("action.play.color", { card: title, color: colorName(action.color) });
      out.push(move(label, [notation(action.text)], () => table.act(action.text)));
    }
    for (const action of actions.filter((a) => a.uno)) {
      const base = action.color ? t("action.play.color", { card: title, color: colorName(action.color) }) : t(verb, { card: title });
      out.push(move(t("action.with_uno", { line: base }), [notation(action.text)], () => table.act(action.text)));
    }
  }
  return out;
}

/**
 * The buttons of the decision and of the moments out of turn (catch, jump in, UNO).
 * @param {import("./table.js").TableView} table
 * @param {import("./types").Observation} obs the observation
 * @param {number} side the side in play
 * @returns {Move[]}
 */
function buttonMoves(table, obs, side) {
  const names = table.names();
  const out = [];
  if (table.choosing) {
    for (const action of table.choosing.actions) {
      const words = [colorName(action.color), notation(action.text)];
      out.push(move(colorTitle(action.color), words, () => table.act(action.text), "colour"));
    }
    return out;
  }
  const other = groupActions(obs).other;
  const drawn = other.filter((a) => a.verb === "play_drawn");
  if (drawn.length) {
    const card = obs.pending && obs.pending.card ? faceTitle(faceOf(obs.pending.card, side)) : "";
    const prompt = card ? t("table.color_for", { card }) : t("table.color_for_drawn");
    out.push(move(actionLabel(drawn[0], obs, names, side), ["play drawn"], () => table.choose(drawn, prompt)));
    for (const action of drawn.filter((a) => a.color)) {
      const label = t("action.play_drawn.color", { color: colorName(action.color) });
      out.push(move(label, [notation(action.text)], () => table.act(action.text)));
    }
  }
  for (const action of other.filter((a) => a.verb !== "uno" && a.verb !== "play_drawn")) {
    const label = action.verb === "color" ? colorTitle(action.color) : actionLabel(action, obs, names, side);
    const words = [notation(action.text), ...(action.color ? [colorName(action.color)] : [])];
    out.push(move(label, words, () => table.act(action.text)));
  }
  return out;
}

/**
 * UNO: called late when the reader forgot it, else said with the next play.
 * @param {import("./table.js").TableView} table
 * @param {import("./types").Observation} obs the observation
 * @returns {Move[]}
 */
function unoMoves(table, obs) {
  const late = obs.legal_actions.find((a) => a === "uno" || a.startsWith("uno "));
  if (late) return [move(t("action.uno"), ["uno", t("table.uno")], () => table.act(late))];
  if (!table.myDecision() || !obs.legal_actions.some((a) => a.endsWith(" uno"))) return [];
  const arm = () => {
    table.armUno();
    table.moveBox.tell(table.unoArmed ? t("table.uno_armed") : t("table.uno_arm"));
  };
  return [move(t("table.uno_arm"), ["uno", t("table.uno")], arm)];
}

/**
 * Every move the reader may type at the table now.
 * @param {import("./table.js").TableView} table
 * @returns {Move[]}
 */
export function typedMoves(table) {
  const state = table.state;
  const obs = state && state.observation;
  if (!obs || table.me === null || table.readOnly) return [];
  const side = Math.max(0, table.variant.side_names.indexOf(obs.side));
  const moves = readMoves(table);
  if (table.room.phase !== "playing" || obs.over) return moves;
  if (table.myDecision() && !table.choosing) moves.push(...cardMoves(table, obs, side));
  if (!table.myDecision()) {
    for (const [card, actions] of groupActions(obs).byCard) {
      const label = t("table.jump_in", { card: faceTitle(faceOf(card, side)) });
      moves.push(move(label, [notation(actions[0].text)], () => table.act(actions[0].text)));
    }
  }
  moves.push(...buttonMoves(table, obs, side), ...unoMoves(table, obs));
  return moves;
}
