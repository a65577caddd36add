// The decision in words and its controls, read from the seat's observation and legal_actions
// (the engine's text notation). Nothing here decides a rule: a card is playable because an
// action that plays it is listed, and every button sends one of the listed actions.

import { colorName, colorWords, faceOf, faceTitle, isColor, kindTitle, parseFace, symbolGlyph } from "./cards.js";
import { t } from "./text.js";

/** Read one action text of legal_actions against the hand: {verb, card, color, uno, seat, text}. */
export function parseAction(text, hand) {
  const parts = text.trim().split(/\s+/);
  const verb = parts[0];
  let rest = parts.slice(1);
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

/** Group legal actions: per hand card (plays or discards), and the other controls. */
export function groupActions(obs) {
  const byCard = new Map();
  const other = [];
  for (const text of obs.legal_actions) {
    const action = parseAction(text, obs.hand);
    if (action.card !== null && obs.hand.includes(action.card)) {
      if (!byCard.has(action.card)) byCard.set(action.card, []);
      byCard.get(action.card).push(action);
    } else other.push(action);
  }
  return { byCard, other };
}

/** Whether the open choose_player decision comes from a Seven (Seven-O) rather than a Trade
 * Hands card: the card that asked for it is the top of the discard pile. */
function sevenO(obs) {
  return obs.top ? parseFace(obs.top).kind === "7" : false;
}

/** What the seat to act is doing, for everyone else: "Bo is naming a colour". */
export function waitingWords(obs, name) {
  const decision = obs.decision;
  if (decision === "choose_player" && sevenO(obs)) return t("web.todo.seven", { player: name });
  return t(`decision.${decision}.todo`, { player: name }, t("web.todo.other", { player: name }));
}

/** The question of the reader's own decision. */
export function promptMessage(obs, names, side) {
  const pending = obs.pending || {};
  const decision = obs.decision;
  switch (decision) {
    case "turn":
      return obs.launcher ? t("web.prompt.turn_launcher") : t("web.prompt.turn");
    case "stack":
      return t("web.prompt.stack", { count: obs.stack });
    case "choose_discard":
      return t("web.prompt.choose_discard");
    case "play_or_keep":
      return t("web.prompt.play_or_keep", { card: pending.card ? faceTitle(faceOf(pending.card, side)) : "" });
    case "challenge":
      return t("web.prompt.challenge", { player: names[pending.by], card: kindTitle(pending.card), color: colorName(pending.color) });
    case "choose_color":
      return t("web.prompt.choose_color");
    case "choose_player":
      return sevenO(obs) ? t("web.prompt.seven") : t("web.prompt.trade");
    case "press_your_luck":
      return t("web.prompt.press_your_luck", { count: (pending.discarded || []).length });
    case "discard_cards":
      return t("web.prompt.discard_cards", { count: pending.count || 1, card: kindTitle(pending.card || "wild") });
    case "choose_target":
      return t("web.prompt.choose_target", { card: kindTitle(pending.card || "wild") });
    default:
      return t("web.prompt.other");
  }
}

/** The words on the button of a (non-card) action. */
export function actionLabel(action, obs, names, side) {
  const pending = obs.pending || {};
  switch (action.verb) {
    case "draw":
      return obs.decision === "stack" || obs.decision === "challenge" ? t("web.action.take_stack", { count: obs.stack }) : t("web.action.draw");
    case "press":
      return t("web.action.press");
    case "keep":
      return t("web.action.keep");
    case "play_drawn":
      return t("web.action.play_drawn", { card: pending.card ? faceTitle(faceOf(pending.card, side)) : "" });
    case "challenge":
      return t("web.action.challenge");
    case "accept":
      return obs.stack ? t("web.action.take_stack", { count: obs.stack }) : t("web.action.accept");
    case "trade":
      return t(sevenO(obs) ? "web.action.swap" : "web.action.trade", { player: names[action.seat], count: obs.hand_sizes[action.seat] });
    case "target":
      return t("web.action.target", { player: names[action.seat] });
    case "press_again":
      return t("web.action.press_again");
    case "stop":
      return t("web.action.stop");
    case "catch":
      return t("web.action.catch", { player: names[action.seat] });
    case "uno":
      return t("web.action.uno_late");
    case "color":
      return `${symbolGlyph(action.color)} ${colorName(action.color)}`;
    default:
      return t("web.action.other");
  }
}

/** The spoken name of a colour button: "Name Red (circle)". */
export function colorLabel(color) {
  return t("web.action.name_color", { color: colorWords(color) });
}
