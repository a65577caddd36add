// The deal of the day: the lobby's panel (today's deals, each to play once for the board, then
// to practise) and a deal's board ("/#/daily/DEAL[/DAY]"): the day's results, best first, the
// games of the others to replay once yours is finished, your streak, and yesterday's board.

import { catalog } from "./cards.js";
import { api, errorText, memory } from "./net.js";
import { clear, fieldError, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { botStrength } from "./options.js";
import { optionWords } from "./together.js";

/**
 * @typedef {Object} Deal one of the day's deals (GET /api/daily)
 * @property {string} deal its name
 * @property {string} variant
 * @property {number} players
 * @property {string} bots the bots' level
 * @property {Record<string, unknown>} options the rules it changes
 */

/**
 * @typedef {Object} DailyYou the reader's attempt at a deal (the board's `you`)
 * @property {boolean} played
 * @property {boolean} finished
 * @property {boolean} ranked whether the finished attempt ranks (an address's first does)
 * @property {number} streak
 */

/**
 * @typedef {Object} DailyResult a line of a deal's board
 * @property {number | null} rank its place; null for the reader's own attempt that does not rank
 * @property {boolean} ranked
 * @property {string} name
 * @property {boolean} you whether it is the reader's
 * @property {boolean} won
 * @property {number} points
 * @property {number} seconds how long the game took
 * @property {string} [record] the address of its record, once the reader may replay it
 */

/**
 * @typedef {Object} DailyBoard a deal's board on a day (POST /api/daily/board)
 * @property {string} day "YYYY-MM-DD"
 * @property {Deal} deal
 * @property {DailyYou} [you] the reader's attempt (when the request names the reader)
 * @property {boolean} replays whether the others' games may be replayed (the reader's is over)
 * @property {DailyResult[]} results best first
 */

/**
 * A deal in words: the game, its seats and its bots, and the rules it changes.
 * @param {Deal} deal
 * @returns {string}
 */
function dealWords(deal) {
  const options = Object.fromEntries(Object.entries(deal.options).filter(([name]) => name !== "rounds"));
  return [
    t("n.daily.deal", { variant: t(`variant.${deal.variant}`), count: deal.players, bot: botStrength(deal.bots) }),
    Object.keys(options).length ? optionWords(options) : null,
  ].filter(Boolean).join(" · ");
}

/**
 * Open a room of `deal` for this browser's identity under `name`, and go and sit in it.
 * @param {string} deal
 * @param {string} name
 */
async function playDeal(deal, name) {
  /** @type {{player: string, deal: string, lang?: string}} */
  const request = { player: memory.identity(), deal };
  if (lang() in catalog().languages) request.lang = lang(); // the bots take names of the player's language
  const found = await api("/api/daily/start", request);
  memory.setName(name);
  sessionStorage.setItem(`unokit.join.${found.room}`, name);
  location.assign(`/r/${found.room}`);
}

/** The button that plays `deal` (the scored game, back to it, or practice), under the name in
 * `nameInput` (or the remembered one).
 * @param {string} deal
 * @param {DailyYou | null | undefined} you
 * @param {HTMLInputElement | null} nameInput
 * @param {HTMLElement} message where a refusal is said
 */
function playButton(deal, you, nameInput, message) {
  let words = t("daily.play");
  if (you && you.finished) words = t("daily.practice");
  else if (you && you.played) words = t("daily.resume");
  const button = h("button.primary", { type: "button", dataset: { deal } }, words);
  button.addEventListener("click", async () => {
    const name = (nameInput ? nameInput.value : memory.name() || "").trim();
    clear(message);
    if (!name) {
      if (nameInput) fieldError(nameInput, t("lobby.name_first"));
      else message.append(h("p.error", { role: "alert" }, t("lobby.name_first")));
      return;
    }
    button.disabled = true;
    try {
      await playDeal(deal, name);
    } catch (err) {
      message.append(h("p.error", { role: "alert" }, errorText(err)));
      button.disabled = false;
    }
  });
  return button;
}

/**
 * The lobby's panel of today's deals.
 * @param {HTMLInputElement} nameInput the lobby's name field
 */
export function dailyPanel(nameInput) {
  const list = h("ul.daily-deals");
  const message = h("div.form-message", { "aria-live": "polite" });
  const streak = h("p.hint.streak");
  const panel = h("section.panel.daily-panel", { "aria-labelledby": "daily-title", "data-region": "daily" },
    h("h2#daily-title", {}, t("daily.title")), h("p.hint", {}, t("daily.hint")),
    h("p.hint.not-rated", {}, t("daily.not_rated")), list, streak, message);
  (async () => {
    /** @type {{deals: Deal[]}} */
    let today;
    try {
      today = await api("/api/daily");
    } catch (err) {
      message.append(h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    for (const deal of today.deals) {
      let you = null;
      try {
        you = (await api("/api/daily/board", { deal: deal.deal, player: memory.identity() })).you;
      } catch (err) {
        you = null;
      }
      if (you && !streak.textContent && you.streak) streak.textContent = t("n.daily.streak", { count: you.streak });
      list.append(h("li", { dataset: { deal: deal.deal } },
        h("span.deal-title", {}, dealWords(deal)),
        you && you.finished ? h("span.done", {}, " ✓ ", t("daily.played")) : null,
        h("span.row", {}, playButton(deal.deal, you, nameInput, message), " ",
          h("a.button", { href: `/#/daily/${encodeURIComponent(deal.deal)}` }, t("daily.results")))));
    }
  })();
  return panel;
}

/**
 * A time as minutes and seconds ("2:05").
 * @param {number} seconds
 */
function clock(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * The board of `deal` on `day` (today when none).
 * @param {HTMLElement} app
 * @param {string} deal
 * @param {string | undefined} day "YYYY-MM-DD"
 */
export function dailyPage(app, deal, day) {
  const page = h("section.panel.daily-board-page", { "aria-labelledby": "daily-board-title" });
  app.append(page);
  (async () => {
    /** @type {DailyBoard} */
    let found;
    try {
      /** @type {{deal: string, player: string, day?: string}} */
      const request = { deal, player: memory.identity() };
      if (day) request.day = day;
      found = await api("/api/daily/board", request);
    } catch (err) {
      page.append(h("h1#daily-board-title", {}, t("daily.title")), h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    const date = new Date(`${found.day}T12:00:00Z`).toLocaleDateString(lang(), { dateStyle: "long", timeZone: "UTC" });
    page.append(h("h1#daily-board-title", {}, t("daily.board_title", { day: date })), h("p", {}, dealWords(found.deal)),
      h("p.hint.not-rated", {}, t("daily.not_rated")));
    const you = found.you;
    const message = h("div.form-message", { "aria-live": "polite" });
    if (you && you.streak) page.append(h("p.streak", {}, t("n.daily.streak", { count: you.streak })));
    if (!day) page.append(h("div.row", {}, playButton(deal, you, null, message)), message);
    if (!found.replays) page.append(h("p.hint", {}, t("daily.replays_after")));
    if (!found.results.length) page.append(h("p.none", {}, t("daily.no_results")));
    else {
      const table = h("table.games.daily-board", { "data-region": "daily-board" }, h("caption.visually-hidden", {}, t("daily.results")));
      const heads = [t("daily.rank"), t("daily.player"), t("daily.result"), t("daily.time"), ""];
      table.append(h("thead", {}, h("tr", {}, heads.map((title) => h("th", { scope: "col" }, title)))));
      const body = h("tbody");
      for (const row of found.results) {
        const name = row.you ? t("seat.you", { name: row.name }) : row.name;
        const result = row.won ? t("daily.won", { points: t("n.points", { count: row.points }) }) : t("daily.lost");
        const room = row.record ? row.record.split("/")[3] : null;
        body.append(h(`tr${row.you ? ".me" : ""}`, {},
          h("td.num", {}, row.rank === null ? "–" : String(row.rank)),
          h("td", {}, name),
          h("td", {}, result),
          h("td.num", {}, clock(row.seconds)),
          h("td.links", {}, room ? h("a.button", { href: `/#/replay/${room}/1/0` }, t("together.replay")) : null)));
      }
      table.append(body);
      page.append(table);
      if (you && you.finished && !you.ranked) page.append(h("p.hint.unranked", {}, t("daily.unranked")));
    }
    const yesterday = new Date(`${found.day}T12:00:00Z`);
    yesterday.setUTCDate(yesterday.getUTCDate() - 1);
    const link = `/#/daily/${encodeURIComponent(deal)}/${yesterday.toISOString().slice(0, 10)}`;
    page.append(h("p.links", {}, h("a", { href: link }, t("daily.day_before")),
      day ? [" · ", h("a", { href: `/#/daily/${encodeURIComponent(deal)}` }, t("daily.today"))] : null));
  })();
  return () => {};
}
