// The decision in words and its controls, read from the seat's observation and legal_actions
// (the engine's text notation). Nothing here decides a rule: a card is playable because an
// action that plays it is listed, and every button sends one of the listed actions.

import { colorTitle, colorWords, faceOf, faceTitle, isColor, kindTitle, parseFace, symbolGlyph } from "./cards.js";
import { colorName, t } from "./i18n.js";

/** Read one action text of legal_actions against the hand: {verb, card, color, uno, seat, text}. */
export function parseAction(text, hand) {
  const parts = text.trim().split(/\s+/);
  const verb = parts[0];
  let rest = parts.slice(1);
  /** @type {{verb: string, text: string, card: string | null, color: string | null, uno: boolean, seat: number | null}} */
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

/** What the seat to act is doing, for everyone else: "Waiting for Bo (to name a colour)…". */
export function waitingWords(obs, name) {
  return t("table.waiting_for", { player: name, todo: todoWords(obs) });
}

/** What the seat to act is doing, in a few words ("to name a colour"). */
export function todoWords(obs) {
  if (obs.decision === "choose_player" && sevenO(obs)) return t("decision.choose_player.seven.todo");
  return t(`decision.${obs.decision}.todo`);
}

/** The question of the reader's own decision. */
export function promptMessage(obs, names, side) {
  const pending = obs.pending || {};
  const decision = obs.decision;
  if (decision === "turn") return t(obs.launcher ? "decision.turn.launcher" : "decision.turn");
  if (decision === "stack") return t(obs.launcher ? "decision.stack.launcher" : "decision.stack", { total: obs.stack });
  if (decision === "play_or_keep") return pending.card ? t("decision.play_or_keep.card",
    { card: faceTitle(faceOf(pending.card, side)) }) : t("decision.play_or_keep");
  if (decision === "challenge") return t("decision.challenge",
    { by: names[pending.by], kind: kindTitle(pending.card), color: colorName(pending.color) });
  if (decision === "choose_player" && sevenO(obs)) return t("decision.choose_player.seven");
  if (decision === "press_your_luck") {
    const done = (pending.discarded || []).length;
    return done ? t("n.decision.press_your_luck.discarded", { count: done }) : t("decision.press_your_luck");
  }
  if (decision === "choose_target" || decision === "discard_cards") return t(`decision.${decision}`,
    { kind: kindTitle(pending.card), count: pending.count || 1 });
  return t(`decision.${decision}`);
}

/** The words on the button of a (non-card) action. */
export function actionLabel(action, obs, names, side) {
  const pending = obs.pending || {};
  const stacked = obs.decision === "stack";
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
        { target: names[action.seat], cards: t("n.cards", { count: obs.hand_sizes[action.seat] }) });
    }
    case "target":
      return t("action.target", { target: names[action.seat] });
    case "catch":
      return t("action.catch", { target: names[action.seat] });
    case "color":
      return `${symbolGlyph(action.color)} ${colorTitle(action.color)}`;
    default:
      return t(`action.${action.verb}`);
  }
}

/** The spoken name of a colour button: "Name red (circle)". */
export function colorLabel(color) {
  return t("table.name_color", { color: colorWords(color) });
}
