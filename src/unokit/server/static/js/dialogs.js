// What comes between hands and after a game: the round summary (over the table while the next
// hand waits, never over your hand or your decision) and the game-over screen with its moment
// for the winner. Both give way as soon as the next deal starts (table.js).

import { h } from "./dom.js";
import { t } from "./text.js";

/** Every hand of a round with each card's points, what each player gained and the totals. */
export function summaryTable(view, summary) {
  const names = view.seatNames();
  const variant = view.variant;
  const caption = variant.double_sided ? t("web.summary.caption_side", { round: summary.round, side: t(`side.${summary.side}`) }) : t("web.summary.caption", { round: summary.round });
  const table = h("table.summary", {}, h("caption", {}, caption));
  table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("web.summary.player")), h("th", { scope: "col" }, t("web.summary.hand")), h("th", { scope: "col" }, t("web.summary.gained")), h("th", { scope: "col" }, t("web.summary.total")))));
  const body = h("tbody");
  for (const line of summary.lines) {
    const name = line.seat === view.me ? t("web.you") : names[line.seat] || line.name;
    const cards = line.cards.length
      ? h("ul.card-points", {}, line.cards.map((c) => h("li", {}, h("span.card-name", {}, c.title), h("span.card-pts", {}, t("web.points", { count: c.points })))))
      : h("span.hint", {}, line.seat === summary.winner ? t("web.summary.went_out") : t("web.summary.no_cards"));
    body.append(h(`tr${line.seat === summary.winner ? ".winner" : ""}${line.seat === view.me ? ".me" : ""}`, {},
      h("th", { scope: "row" }, name),
      h("td.cards-left", {}, cards, line.hand_points ? h("span.hand-points", {}, t("web.summary.hand_points", { count: line.hand_points })) : null),
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
  const title = summary.blocked ? t("web.summary.blocked", { round: summary.round, player: names[summary.winner] }) : t("web.summary.went_out_title", { round: summary.round, player: names[summary.winner] });
  const panel = h("section.summary-panel.overlay-panel", { role: "region", "aria-labelledby": "summary-title" }, h("h2#summary-title", {}, title));
  panel.append(h("div.panel-scroll", {}, summaryTable(view, summary)));
  const buttons = h("div.overlay-buttons");
  buttons.append(h("span.countdown", {}, ""));
  if (view.conn.isHost) buttons.append(h("button.primary", { type: "button", dataset: { verb: "host-continue", key: "continue" }, onclick: () => view.conn.host("continue") }, t("web.summary.next_now")));
  buttons.append(h("button.close-panel", { type: "button", onclick: () => { view.summaryShown = false; view.render(); } }, t("web.close")));
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
  if (won) title = teamWon ? t("web.over.team_won") : t("web.over.you_won");
  else title = t("web.over.won", { players: obs.winners.map((s) => names[s]).join(t("web.list.and")) });
  const dialog = h(`div.overlay${won ? ".winner" : ""}`, { role: "dialog", "aria-modal": "true", "aria-labelledby": "overlay-title" });
  const panel = h("div.overlay-panel");
  if (won) {
    const burst = h("div.confetti", { "aria-hidden": "true" });
    for (let i = 0; i < 18; i++) burst.append(h(`span.piece.p${i % 6}`));
    panel.append(burst);
  }
  panel.append(h("h2#overlay-title.game-over", {}, title));
  const totals = h("ol.final-scores");
  obs.scores.map((score, seat) => ({ score, seat })).sort((a, b) => (obs.winners.includes(b.seat) - obs.winners.includes(a.seat)) || b.score - a.score)
    .forEach(({ score, seat }) => totals.append(h(`li${obs.winners.includes(seat) ? ".winner" : ""}`, {}, h("span", {}, names[seat]), h("span.num", {}, t("web.points", { count: score })))));
  panel.append(totals);
  if (view.summary) panel.append(h("details.last-round", {}, h("summary", {}, t("web.summary.last_round")), summaryTable(view, view.summary)));
  const number = view.room.game_no;
  const buttons = h("div.overlay-buttons");
  buttons.append(
    h("a.button", { href: `/api/rooms/${view.code}/records/${number}`, download: `unokit-${view.code}-${number}.json` }, t("web.over.download")),
    h("a.button", { href: `/#/replay/${view.code}/${number}` }, t("web.over.replay")),
  );
  if (view.conn.isHost) buttons.append(h("button.primary", { type: "button", dataset: { verb: "host-start", key: "start-again" }, onclick: () => view.conn.host("start") }, t("web.over.new_game")));
  else buttons.append(h("p.hint", {}, t("web.over.wait_host")));
  panel.append(buttons, h("div.after-game", { dataset: { slot: "play-again" } }));
  dialog.append(panel);
  return dialog;
}
