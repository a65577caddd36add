// What comes between hands and after a game: the round summary (over the table while the next
// hand waits, never over your hand or your decision) and the game-over screen with its moment
// for the winner. Both give way as soon as the next deal starts (table.js).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { faceTitle } from "./cards.js";

/** Every hand of a round with each card's points, what each player gained and the totals. */
export function summaryTable(view, summary) {
  const names = view.seatNames();
  const variant = view.variant;
  const caption = variant.double_sided ? t("summary.caption_side", { round: summary.round, side: t(`side.${summary.side}`) }) : t("summary.caption", { round: summary.round });
  const table = h("table.summary", {}, h("caption", {}, caption));
  table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("summary.player")), h("th", { scope: "col" }, t("summary.cards_left")), h("th", { scope: "col" }, t("summary.gained")), h("th", { scope: "col" }, t("summary.total")))));
  const body = h("tbody");
  for (const line of summary.lines) {
    const name = line.seat === view.me ? t("table.you") : names[line.seat] || line.name;
    const cards = line.cards.length
      ? h("ul.card-points", {}, line.cards.map((c) => h("li", {}, h("span.card-name", {}, faceTitle(c.card)), h("span.card-pts", {}, t("n.points", { count: c.points })))))
      : h("span.hint", {}, line.seat === summary.winner ? t("summary.went_out") : t("cards.none"));
    body.append(h(`tr${line.seat === summary.winner ? ".winner" : ""}${line.seat === view.me ? ".me" : ""}`, {},
      h("th", { scope: "row" }, name),
      h("td.cards-left", {}, cards, line.hand_points ? h("span.hand-points", {}, t("n.summary.hand_points", { count: line.hand_points })) : null),
      h("td.num", {}, line.gained ? `+${line.gained}` : "0"),
      h("td.num", {}, String(line.total))));
  }
  table.append(body);
  return table;
}

/** The summary of the round just ended, over the table while the next hand waits. */
export function roundSummaryPanel(view) {
  const summary = view.summary;
  const names = view.names();
  const room = view.room;
  const title = t(summary.blocked ? "table.round_blocked" : "table.round_out", { round: summary.round, player: names[summary.winner] });
  const panel = h("section.summary-panel.overlay-panel", { role: "region", "aria-labelledby": "summary-title" }, h("h2#summary-title", {}, title));
  const table = summaryTable(view, summary);
  // The title names the round already; only a double-sided deck's caption (the side the round
  // ended on) adds something to see.
  if (!view.variant.double_sided) table.caption.classList.add("sr-only");
  panel.append(h("div.panel-scroll", {}, table));
  const buttons = h("div.overlay-buttons");
  buttons.append(h("span.countdown", {}, ""));
  if (view.conn.isHost) buttons.append(h("button.primary", { type: "button", dataset: { verb: "host-continue", key: "continue" }, onclick: () => view.conn.host("continue") }, t("host.next_hand")));
  buttons.append(h("button.close-panel", { type: "button", onclick: () => { view.summaryShown = false; view.render(); } }, t("table.close")));
  panel.append(buttons);
  return panel;
}

/** The end of the game: the winner's moment, the last round, the record and what comes next. */
export function gameOverDialog(view, obs) {
  const names = view.names();
  const me = view.me;
  const won = me !== null && obs.winners.includes(me);
  const teamWon = won && obs.teams && obs.winners.length > 1;
  let title;
  if (won) title = t(teamWon ? "table.team_won" : "table.you_won");
  else title = t("table.game_over", { winners: obs.winners.map((s) => names[s]).join(t("list.separator")) });
  // Over the table and the decision, never over the hand or the drawer (its chat stays within
  // reach while the players decide whether to play again).
  const dialog = h(`section.overlay${won ? ".winner" : ""}`, { role: "region", "aria-labelledby": "overlay-title" });
  const panel = h("div.overlay-panel");
  if (won) {
    const burst = h("div.confetti", { "aria-hidden": "true" });
    for (let i = 0; i < 18; i++) burst.append(h(`span.piece.p${i % 6}`));
    panel.append(burst);
  }
  panel.append(h("h2#overlay-title.game-over", {}, title));
  const totals = h("ol.final-scores");
  obs.scores.map((score, seat) => ({ score, seat })).sort((a, b) => (obs.winners.includes(b.seat) - obs.winners.includes(a.seat)) || b.score - a.score)
    .forEach(({ score, seat }) => totals.append(h(`li${obs.winners.includes(seat) ? ".winner" : ""}`, {}, h("span", {}, names[seat]), h("span.num", {}, t("n.points", { count: score })))));
  panel.append(totals);
  if (view.summary) panel.append(h("details.last-round", {}, h("summary", {}, t("summary.last_round")), summaryTable(view, view.summary)));
  const number = view.room.game_no;
  const buttons = h("div.overlay-buttons");
  buttons.append(
    h("a.button", { href: `/api/rooms/${view.code}/records/${number}`, download: `unokit-${view.code}-${number}.json` }, t("table.download_record")),
    h("a.button", { href: `/#/replay/${view.code}/${number}` }, t("table.replay")),
  );
  if (view.conn.isHost) buttons.append(h("button.primary", { type: "button", dataset: { verb: "host-start", key: "start-again" }, onclick: () => view.conn.host("start") }, t("host.start_new")));
  buttons.append(h("button.close-panel", { type: "button", onclick: () => { view.overClosed = view.room.game_no; view.render(); } }, t("table.close")));
  panel.append(buttons);
  if (view.playAgain && view.room.phase === "finished") panel.append(view.playAgain());
  dialog.append(panel);
  return dialog;
}
