// What comes between hands and after a game: the round summary (over the table while the next
// hand waits) and the game-over screen with its moment for the winner. Both show every player's
// row and every button without scrolling on every screen (a row per player: the cards left are
// counted, and listed on request; more than six players share two columns), and both give way
// as soon as the next deal starts (table.js). Upright and at a desk they never cover the hand;
// on a phone held sideways they take the whole table, hand included.

import { h } from "./dom.js";
import { runs } from "./features.js";
import { N_, number, say, sealedWords, t } from "./i18n.js";
import { faceTitle } from "./cards.js";
import { ranking, readyMark } from "./together.js";

/** Players beyond which the end screens' rows share two columns. */
const ONE_COLUMN = 6;

/**
 * `text` with no-break spaces: a count and its word ("13 cards") stay on one line.
 * @param {string} text
 * @returns {string}
 */
function unbroken(text) {
  return text.replace(/ /g, "\u00a0");
}

/**
 * The cards a summary line has left, as words ("Red Skip 20, Wild 50"), or what the player did.
 * @param {import("./types").RoundSummary["lines"][number]} line a summary line
 * @param {import("./types").RoundSummary} summary the summary
 * @returns {HTMLElement}
 */
function cardsLeft(line, summary) {
  if (!line.cards.length) return h("span.hint", {}, line.seat === summary.winner ? t("summary.went_out") : t("cards.none"));
  return h(
    "ul.card-points",
    {},
    line.cards.map((c) =>
      h("li", {}, h("span.card-name", {}, faceTitle(c.card)), h("span.card-pts", {}, t("n.points", { count: c.points }))),
    ),
  );
}

/**
 * Every hand of a round with what each player gained and the totals. `full`: each card left
 * with its points (the drawer's scores, or on request); else the cards are counted with their
 * points, one line per player.
 * @param {import("./table.js").TableView} view the table
 * @param {import("./types").RoundSummary} summary the round's summary
 * @param {boolean} full list the cards
 * @returns {HTMLTableElement}
 */
export function summaryTable(view, summary, full = true) {
  const names = view.seatNames();
  const variant = view.variant;
  const caption = variant.double_sided
    ? t("summary.caption_side", { round: summary.round, side: t(`side.${summary.side}`) })
    : t("summary.caption", { round: summary.round });
  const table = /** @type {HTMLTableElement} */ (h(`table.summary${full ? "" : ".compact"}`, {}, h("caption", {}, caption)));
  const heads = [
    t("summary.player"),
    full ? t("summary.cards_left") : t("summary.left"),
    t("summary.gained"),
    t("summary.total"),
  ];
  table.append(
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        heads.map((title) => h("th", { scope: "col" }, title)),
      ),
    ),
  );
  const body = h("tbody");
  for (const line of summary.lines) {
    const name = line.seat === view.me ? t("table.you") : names[line.seat] || line.name;
    let left;
    if (full)
      left = [
        cardsLeft(line, summary),
        line.hand_points ? h("span.hand-points", {}, t("n.summary.hand_points", { count: line.hand_points })) : null,
      ];
    else if (!line.cards.length) left = cardsLeft(line, summary);
    else
      left = t("summary.count_points", {
        cards: unbroken(t("n.cards", { count: line.cards.length })),
        points: unbroken(t("n.points", { count: line.hand_points })),
      });
    body.append(
      h(
        `tr${line.seat === summary.winner ? ".winner" : ""}${line.seat === view.me ? ".me" : ""}`,
        { dataset: { seat: String(line.seat) } },
        h("th", { scope: "row" }, name),
        h("td.cards-left", {}, left),
        h("td.num", {}, line.gained ? `+${number(line.gained)}` : number(0)),
        h("td.num", {}, number(line.total)),
      ),
    );
  }
  table.append(body);
  return table;
}

/**
 * The summary of the round just ended, over the table while the next hand waits: a line per
 * player, the cards left counted (listed with "The cards left"), the host's button for the
 * next hand and the time until it comes by itself.
 * @param {import("./table.js").TableView} view the table
 * @returns {HTMLElement}
 */
export function roundSummaryPanel(view) {
  // Drawn only while the table holds a summary (TableView.endScreens).
  const summary = /** @type {import("./types").RoundSummary} */ (view.summary);
  const names = view.names();
  const key = summary.blocked ? N_("table.round_blocked") : N_("table.round_out");
  const title = say({ key, params: { round: summary.round, player: summary.winner } }, names, view.me);
  const panel = h(
    `section.summary-panel.overlay-panel${summary.lines.length > ONE_COLUMN ? ".many" : ""}`,
    { role: "region", "aria-labelledby": "summary-title" },
    h("h2#summary-title", {}, title),
  );
  const full = Boolean(view.summaryFull);
  const table = summaryTable(view, summary, full);
  // The title names the round already; only a double-sided deck's caption (the side the round
  // ended on) adds something to see.
  if (!view.variant.double_sided) /** @type {HTMLTableCaptionElement} */ (table.caption).classList.add("sr-only");
  panel.append(h("div.panel-scroll", {}, table));
  const buttons = h("div.overlay-buttons");
  if (view.conn.isHost)
    buttons.append(
      h(
        "button.primary",
        { type: "button", dataset: { verb: "host-continue", key: "continue" }, onclick: () => view.conn.host("continue") },
        t("host.next_hand"),
      ),
    );
  buttons.append(
    h(
      "button.show-cards",
      {
        type: "button",
        "aria-pressed": String(full),
        dataset: { key: "summary-cards" },
        onclick: () => {
          view.summaryFull = !full;
          view.render();
        },
      },
      t("summary.show_cards"),
    ),
  );
  buttons.append(
    h(
      "button.close-panel",
      {
        type: "button",
        onclick: () => {
          view.summaryShown = false;
          view.render();
        },
      },
      t("table.close"),
    ),
  );
  buttons.append(h("span.countdown", {}, ""));
  panel.append(buttons);
  return panel;
}

/**
 * The standings at the end of a game, winners first: place, name, points and what the last
 * round added, and once the room waits for the next game, whether each one will play again
 * (the list then carries the seats' ready marks, data-ready).
 * @param {import("./table.js").TableView} view the table
 * @param {import("./types").Observation} obs the observation
 * @param {boolean} nextGame whether the room may play another game (not an arena's table)
 * @returns {HTMLElement}
 */
function standings(view, obs, nextGame) {
  const names = view.names();
  const room = view.room;
  const waiting = room.phase === "finished" && nextGame;
  const gained = new Map((view.summary && view.summary.over ? view.summary.lines : []).map((l) => [l.seat, l.gained]));
  const order = ranking(obs.scores, obs.winners);
  const list = h(`ol.final-scores${waiting ? ".ready-list" : ""}${order.length > ONE_COLUMN ? ".many" : ""}`);
  order.forEach(({ score, seat }, place) => {
    const seatInfo = room.seats[seat];
    const ready = waiting ? readyMark(seatInfo) : null;
    const plus = gained.get(seat) ? h("span.gained", {}, ` +${number(/** @type {number} */ (gained.get(seat)))}`) : null;
    list.append(
      h(
        `li${obs.winners.includes(seat) ? ".winner" : ""}${ready && ready.ready ? ".ready" : ""}`,
        { dataset: { seat: String(seat), ready: ready ? ready.state : undefined } },
        h("span.place", {}, `${place + 1}.`),
        h("span.who", {}, names[seat]),
        h("span.num", {}, h("span.points", {}, t("n.points", { count: score })), plus),
        ready ? h("span.ready-mark", {}, ready.words) : null,
      ),
    );
  });
  return list;
}

/**
 * The end of the game: the winner's moment, the standings (with who plays again), then the
 * buttons, Play again first, and the record to replay or download.
 * @param {import("./table.js").TableView} view the table
 * @param {import("./types").Observation} obs the observation
 * @returns {HTMLElement}
 */
export function gameOverDialog(view, obs) {
  const names = view.names();
  const me = view.me;
  const won = me !== null && obs.winners.includes(me);
  const title = say({ key: N_("table.game_over"), params: { winners: obs.winners } }, names, me);
  // Over the table and the decision, never over the drawer (its chat stays within reach while
  // the players decide whether to play again).
  const dialog = h(`section.overlay${won ? ".winner" : ""}`, { role: "region", "aria-labelledby": "overlay-title",
    "data-region": "end" });
  const panel = h("div.overlay-panel.end-panel");
  if (won) {
    const burst = h("div.confetti", { "aria-hidden": "true" });
    for (let i = 0; i < 18; i++) burst.append(h(`span.piece.p${i % 6}`));
    panel.append(burst);
  }
  const again = view.playAgain && view.room.phase === "finished" ? view.playAgain() : [];
  // an arena's table offers the way back to the arena in place of Play again: no next game there
  const nextGame = !again.length || again.some((button) => button.id === "play-again");
  panel.append(h("h2#overlay-title.game-over", {}, title), standings(view, obs, nextGame));
  const number = view.room.game_no;
  const buttons = h("div.overlay-buttons");
  buttons.append(...again);
  if (view.conn.isHost)
    buttons.append(
      h(
        "button",
        { type: "button", dataset: { verb: "host-start", key: "start-again" }, onclick: () => view.conn.host("start") },
        t("host.start_new"),
      ),
    );
  const sealed = sealedWords(view.room.sealed_until);
  if (!sealed)
    buttons.append(
      h("a.button", { href: `/#/replay/${view.code}/${number}${me !== null ? `/${me}` : ""}` }, t("table.replay")),
      h(
        "a.button",
        { href: `/api/rooms/${view.code}/records/${number}`, download: `unokit-${view.code}-${number}.json` },
        t("table.download_record"),
      ),
    );
  if (me !== null && runs("reviews")) {
    buttons.append(h("a.button#review-game", { href: `/#/review/${view.code}/${number}/${me}` }, t("review.open")));
  }
  if (view.summary)
    buttons.append(h("button.last-round", { type: "button", onclick: () => view.showScores() }, t("summary.last_round")));
  buttons.append(
    h(
      "button.close-panel",
      {
        type: "button",
        onclick: () => {
          view.overClosed = view.room.game_no;
          view.render();
        },
      },
      t("table.close"),
    ),
  );
  panel.append(buttons);
  if (sealed) panel.append(h("p.hint.sealed", {}, sealed));
  for (const note of view.room.notes || []) panel.append(h("p.hint.room-note", {}, t(note)));
  if (view.playAgain && view.room.phase === "finished" && nextGame) panel.append(h("p.hint.next-game", {}, t("together.next_when_ready")));
  dialog.append(panel);
  return dialog;
}
