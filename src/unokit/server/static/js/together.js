// Playing together: "play again" after a game (who is ready, for everyone to see), the lobby's
// list of public rooms with "Play now", and "My games" (this browser's finished games, kept by
// the server under the browser's player identity).

import { catalog } from "./cards.js";
import { api, errorText, memory } from "./net.js";
import { clear, fieldError, h } from "./dom.js";
import { runs } from "./features.js";
import { N_, lang, say, sealedWords, t } from "./i18n.js";
import { forgetPush } from "./push.js";

// ---------------------------------------------------------------------- play again

/**
 * Whether a seat's player will play again, for the end of a game's standings: its state as
 * data-ready says it ("true", "false", "bot", "open") and in words.
 * @param {import("./types").Seat} seat the room's seat
 * @returns {{state: string, ready: boolean, words: string}}
 */
export function readyMark(seat) {
  if (seat.kind === "open") return { state: "open", ready: false, words: t("together.open_seat") };
  if (seat.kind === "bot") return { state: "bot", ready: false, words: t("together.bot_plays_along") };
  const ready = Boolean(seat.ready);
  return { state: String(ready), ready, words: ready ? t("together.ready") : t("together.not_yet") };
}

/**
 * The buttons of a finished game for the reader's seat: Play again (or take it back) and Leave
 * the table; none for a spectator.
 * @param {import("./types").Room} room the room
 * @param {import("./net.js").RoomConnection} conn the room's connection
 * @param {{onLeave: () => void}} hooks what to do once the seat is left
 * @returns {HTMLElement[]}
 */
export function playAgainButtons(room, conn, { onLeave }) {
  if (conn.seat === null || conn.seat === undefined) return [];
  const mine = room.seats[conn.seat];
  const ready = Boolean(mine && mine.ready);
  return [
    h("button.primary#play-again", {
      type: "button",
      "aria-pressed": String(ready),
      dataset: { action: "play-again", key: "play-again" },
      onclick: () => conn.ready(!ready),
    },
      ready ? t("together.ready_undo") : t("together.play_again")),
    h("button#leave-table", {
      type: "button",
      dataset: { key: "leave" },
      onclick: () => {
        if (conn.leave()) onLeave();
      },
    }, t("together.leave_table")),
  ];
}

// ---------------------------------------------------------------------- the lobby's list

/**
 * The options a room changed, as people read them: "Target score: 300, Stacking: same card".
 * @param {Record<string, unknown> | null | undefined} options
 * @returns {string}
 */
export function optionWords(options) {
  const parts = Object.entries(options || {}).map(([name, value]) => {
    let shown;
    if (Array.isArray(value)) shown = value.join(" ");
    else if (typeof value === "number" || value === null) shown = value === null ? t("lobby.none") : String(value);
    else if (name === "stacking" && typeof value === "boolean") shown = t(value ? "option.stacking.same" : "option.stacking.false");
    else shown = t(`option.${name}.${value}`);
    return t("room.option_value", { option: t(`option.${name}`), value: shown });
  });
  return parts.length ? parts.join(t("list.separator")) : t("together.standard_rules");
}

/**
 * "Play now": a seat at a public table of the chosen game at once (or a new one that bots fill
 * when nobody comes), under the name in `nameInput`.
 * @param {import("./types").Catalog} catalog the server's catalogue
 * @param {HTMLInputElement} nameInput the lobby's name field
 * @returns {HTMLElement}
 */
export function playNowPanel(catalog, nameInput) {
  const panel = h("section.panel.play-now-panel", { "aria-labelledby": "play-now-title" });
  const names = Object.keys(catalog.variants);
  const variant = h("select#play-now-variant", { "aria-label": t("together.play_now_variant") },
    names.map((n) => h("option", { value: n }, t(`variant.${n}`))));
  const message = h("div.form-message", { "aria-live": "polite" });
  const button = h("button.primary.big#play-now", { type: "button" }, t("together.play_now"));
  button.addEventListener("click", async () => {
    const name = nameInput.value.trim();
    clear(message);
    if (!name) {
      fieldError(nameInput, t("lobby.name_first"));
      return;
    }
    button.disabled = true;
    try {
      await playNow(variant.value, name);
    } catch (err) {
      message.append(h("p.error", { role: "alert" }, errorText(err)));
      button.disabled = false;
    }
  });
  panel.append(h("h2#play-now-title", {}, t("together.play_now")), h("p.hint", {}, t("together.play_now_hint")),
    h("div.row", {}, variant, button), message);
  return panel;
}

/** The public rooms, waiting for players or being played, refreshed every few seconds;
 * returns [element, stop].
 * @param {import("./types").Catalog} catalog
 * @returns {[HTMLElement, () => void]}
 */
export function publicRoomsPanel(catalog) {
  const panel = h("section.panel#public-rooms", { "aria-labelledby": "public-title" });
  const waiting = h("ul.room-list#waiting-rooms");
  const playing = h("ul.room-list#playing-rooms");
  panel.append(
    h("h2#public-title", {}, t("together.find_game")),
    h("p.hint#rated-rule", {}, t("lobby.rated_rule")),
    h("h3", {}, t("together.waiting_rooms")), waiting,
    h("h3", {}, t("together.games_to_watch")), playing,
  );
  const refresh = async () => {
    /** @type {{waiting: PublicRoom[], playing: PublicRoom[]}} */
    let found;
    try {
      found = await api("/api/lobby");
    } catch (err) {
      return;
    }
    clear(waiting).append(...(found.waiting.length ? found.waiting.map((room) => roomItem(catalog, room, false)) : [h("li.none", {},
      t("together.no_waiting"))]));
    clear(playing).append(...(found.playing.length ? found.playing.map((room) => roomItem(catalog, room, true)) : [h("li.none", {},
      t("together.no_playing"))]));
  };
  refresh();
  const timer = setInterval(refresh, 5000);
  return [panel, () => clearInterval(timer)];
}

/**
 * @typedef {Object} PublicRoom a public room as the lobby lists it (GET /api/lobby)
 * @property {string} room its code
 * @property {string} variant
 * @property {number} players
 * @property {Record<string, unknown>} options the options changed from the variant's defaults
 * @property {string} phase
 * @property {number} open_seats
 * @property {number} people
 * @property {string | null} host the host's name
 * @property {string[]} names the seated players' and bots' names
 * @property {number} game_no
 */

/**
 * A public room in the lobby's list: what it plays, its seats, its host, and the link to it.
 * @param {import("./types").Catalog} catalog
 * @param {PublicRoom} room
 * @param {boolean} watch whether it is being played (a link to watch) or waits (to join)
 */
function roomItem(catalog, room, watch) {
  const host = room.host ? t("together.host", { name: room.host }) : t("together.open_table");
  const seats = watch ? t("n.together.players_of", { count: room.names.length, total: room.players }) : t("n.together.open_of",
    { count: room.open_seats, total: room.players });
  return h("li", { dataset: { room: room.room } },
    h("span.room-title", {}, t(`variant.${room.variant}`)), ` · ${optionWords(room.options)} · ${seats} · ${host} `,
    h("a.button", { href: watch ? `/r/${room.room}#watch` : `/r/${room.room}` }, watch ? t("together.watch") : t("together.join")));
}

/**
 * Find a public room of `variant` with an open seat (or open one) and go and sit in it.
 * @param {string} variant
 * @param {string} name
 */
export async function playNow(variant, name) {
  /** @type {{variant: string, lang?: string}} */
  const request = { variant };
  if (lang() in catalog().languages) request.lang = lang(); // a room it opens names its bots in the player's language
  const found = await api("/api/play-now", request);
  memory.setName(name);
  sessionStorage.setItem(`unokit.join.${found.room}`, name);
  sessionStorage.setItem(`unokit.playnow.${found.room}`, variant);
  location.assign(`/r/${found.room}`);
}

// ---------------------------------------------------------------------- my games

/**
 * The seats of a finished game in the order of its standings: the winners first, then by
 * points, the most first.
 * @param {number[]} scores the points of each seat
 * @param {number[]} winners the winning seats
 * @returns {{score: number, seat: number}[]}
 */
export function ranking(scores, winners) {
  return scores.map((score, seat) => ({ score, seat }))
    .sort((a, b) => (Number(winners.includes(b.seat)) - Number(winners.includes(a.seat))) || b.score - a.score);
}

/**
 * @typedef {Object} MyGame a finished game of this browser's player (/api/my-games)
 * @property {string} room
 * @property {number} game its number in the room
 * @property {number} seat the player's seat
 * @property {string} variant
 * @property {number} at when it ended (seconds since 1970)
 * @property {string[]} names
 * @property {number[]} scores
 * @property {number[]} winners
 * @property {string} record the address of its record
 * @property {number | null} sealed_until until when its replay and record are sealed (a deal of the day's), null: not
 */

/**
 * A finished game's standings, winners first: each place with its player's name (yours marked)
 * and points.
 * @param {MyGame} game a game of /api/my-games
 * @returns {HTMLElement}
 */
export function standingsList(game) {
  const order = ranking(game.scores, game.winners);
  return h("ol.standings", {}, order.map(({ score, seat }) => {
    const name = seat === game.seat ? t("seat.you", { name: game.names[seat] }) : game.names[seat];
    return h(`li${seat === game.seat ? ".me" : ""}`, {}, h("span.who", {}, name), " ", h("span.num", {}, t("n.points", { count: score })));
  }));
}

/**
 * The "My games" page: this browser's finished games, each to replay or download.
 * @param {HTMLElement} app
 * @param {import("./types").Catalog} catalog
 * @returns {() => void} what to do when the page is left
 */
export function myGamesPage(app, catalog) {
  const page = h("section.panel.my-games", { "aria-labelledby": "my-games-title" });
  app.append(page);
  const draw = async () => {
    clear(page).append(h("h1#my-games-title", {}, t("ui.nav.games")));
    /** @type {{retention_days: number, records_days: number, games: MyGame[]}} */
    let found;
    try {
      found = await api("/api/my-games", { player: memory.identity() });
    } catch (err) {
      page.append(h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    page.append(h("p.hint", {}, t("n.together.my_games_hint", { count: Math.round(found.retention_days) }), " ",
      t("n.together.records_hint", { count: Math.round(found.records_days) })));
    if (!found.games.length) page.append(h("p.none", {}, t("together.no_games")));
    else {
      const table = h("table.games", {}, h("caption.visually-hidden", {}, t("together.finished_games")));
      const heads = [t("together.when"), t("together.game"), t("together.result"), ""];
      table.append(h("thead", {}, h("tr", {}, heads.map((title) => h("th", { scope: "col" }, title)))));
      const body = h("tbody");
      for (const game of found.games) {
        const result = say({ key: N_("together.won"), params: { winners: game.winners } }, game.names, game.seat);
        const sealed = sealedWords(game.sealed_until);
        body.append(h("tr", { dataset: { room: game.room, game: String(game.game) } },
          h("td", {}, new Date(game.at * 1000).toLocaleString(lang())),
          h("td", {}, t("together.game_in_room", { variant: t(`variant.${game.variant}`), code: game.room, number: game.game })),
          h("td.result", {}, h("strong", {}, result), standingsList(game)),
          h("td.links", {},
            sealed ? null : h("a.button", { href: `/#/replay/${game.room}/${game.game}/${game.seat}` }, t("together.replay")),
            " ",
            runs("reviews") ? h("a.button.review", { href: `/#/review/${game.room}/${game.game}/${game.seat}` }, t("review.open")) : null,
            " ",
            sealed
              ? h("span.hint.sealed", {}, sealed)
              : h("a.button.download", { href: game.record, download: `unokit-${game.room}-${game.game}.json` }, t("together.download")))));
      }
      table.append(body);
      page.append(table);
    }
    page.append(h("p.replay-file-link", {}, h("a", { href: "/#/replay" }, t("together.replay_file"))));
    page.append(h("div.row", {}, h("button.danger#forget-me", {
      type: "button",
      onclick: async () => {
        if (!confirm(t("together.forget_confirm"))) return;
        await api("/api/my-games/forget", { player: memory.identity() });
        memory.forgetIdentity();
        await forgetPush().catch(() => {}); // the server deleted its subscriptions; the browser drops its own
        draw();
      },
    }, t("together.forget_me"))));
  };
  draw();
  return () => {};
}
