// Ratings for those who choose them: the panel of "My games" (choose to be rated under a name,
// your ratings and their history, stop and forget them) and the leaderboards
// ("/#/leaderboard/VARIANT/SIZE", their table data-region="leaderboard").

import { api, errorText, memory } from "./net.js";
import { clear, h } from "./dom.js";
import { runs } from "./features.js";
import { lang, number, t } from "./i18n.js";
import { playerRange } from "./options.js";

/**
 * @typedef {Object} Rating a player's rating at tables of one variant and size (/api/ratings/mine)
 * @property {string} variant
 * @property {number} players
 * @property {number} rating
 * @property {number} games
 * @property {number} opponents the different opponents it has met
 * @property {boolean} provisional
 * @property {number | null} reset when the operator last put it back to a new player's (seconds since 1970)
 */

/**
 * @typedef {Object} RatedGame one game of a player's rating history
 * @property {number} at when it ended (seconds since 1970)
 * @property {string} variant
 * @property {boolean} won
 * @property {number} rating the rating after it
 * @property {number | null} annulled when the operator annulled it: its change no longer counts
 */

/** @typedef {{place: number, name: string, rating: number, games: number}} LeaderboardPlace a line of a leaderboard */

/**
 * @typedef {Object} RatingScale what a rating's number means (the server's rating_scale())
 * @property {number} start a new player's rating
 * @property {Record<string, number>} levels each bot level's fixed rating, weakest first
 * @property {number} min_opponents the different opponents a rating must meet to be no longer provisional
 * @property {number} active_days how recent a game keeps a rating on a leaderboard
 */

/**
 * What a rating's number means, in words: where a new player starts, and the bot levels beside it.
 * @param {RatingScale} scale
 * @returns {string}
 */
function scaleWords(scale) {
  const levels = Object.entries(scale.levels)
    .map(([level, rating]) => t("ratings.level", { level: t(`bot.${level}`), rating: number(rating, 1) }));
  return t("ratings.scale", { start: number(scale.start, 1), levels: levels.join(t("list.separator")) });
}

const leaderboardLink = (variant = "classic", /** @type {number | string} */ players = 2) => `/#/leaderboard/${variant}/${players}`;

/** The ratings panel of "My games". */
export function ratingsPanel() {
  const panel = h("section.panel.ratings-panel", { "aria-labelledby": "ratings-title" });
  const draw = async () => {
    clear(panel).append(h("h2#ratings-title", {}, t("ratings.title")), h("p.hint", {}, t("ratings.hint")));
    /** @type {{rated: boolean, name: string | null, ratings: Rating[], history: RatedGame[], scale: RatingScale}} */
    let mine;
    try {
      mine = await api("/api/ratings/mine", { player: memory.identity() });
    } catch (err) {
      panel.append(h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    const message = h("div.form-message", { "aria-live": "polite" });
    if (!mine.rated) {
      const name = h("input#rating-name", { type: "text", maxlength: "40", value: memory.name(), autocomplete: "nickname" });
      const join = h("button.primary#rating-join", { type: "button" }, t("ratings.join"));
      join.addEventListener("click", async () => {
        clear(message);
        try {
          await api("/api/ratings/join", { player: memory.identity(), name: name.value.trim() });
          draw();
        } catch (err) {
          message.append(h("p.error", { role: "alert" }, errorText(err)));
        }
      });
      panel.append(h("div.field", {}, h("label", { for: "rating-name" }, t("ratings.name")), name), h("div.row", {}, join), message);
    } else {
      panel.append(h("p", {}, t("ratings.rated_as", { name: mine.name })));
      if (!mine.ratings.length) panel.append(h("p.none", {}, t("ratings.none")));
      else {
        panel.append(h("p.hint.rating-scale", {}, scaleWords(mine.scale)));
        panel.append(h("ul.rating-list", {}, mine.ratings.map((/** @type {Rating} */ r) => h("li", {},
          h("a", { href: leaderboardLink(r.variant, r.players) },
            t("n.leaderboard.of", { variant: t(`variant.${r.variant}`), count: r.players })),
          `: ${t("ratings.value", { rating: number(r.rating, 1) })} · `, t("n.ratings.games", { count: r.games }),
          r.provisional ? ` · ${t("n.ratings.provisional", { count: r.opponents, most: mine.scale.min_opponents })}` : "",
          r.reset ? ` · ${t("ratings.reset", { day: new Date(r.reset * 1000).toLocaleDateString(lang()) })}` : ""))));
        panel.append(h("h3", {}, t("ratings.history")), h("ol.rating-history", {}, mine.history.map(
          (/** @type {RatedGame} */ game) => h("li", {},
          `${new Date(game.at * 1000).toLocaleString(lang())} · ${t(`variant.${game.variant}`)} · `,
          game.won ? t("ratings.won") : t("daily.lost"), ` · ${number(game.rating, 1)}`,
          game.annulled ? h("span.annulled", {}, ` · ${t("ratings.annulled")}`) : ""))));
      }
      const leave = h("button.danger#rating-leave", { type: "button" }, t("ratings.leave"));
      leave.addEventListener("click", async () => {
        if (!confirm(t("ratings.leave_confirm"))) return;
        await api("/api/ratings/leave", { player: memory.identity() });
        draw();
      });
      panel.append(h("div.row", {}, leave));
    }
    panel.append(boardLinks(null));
  };
  draw();
  return panel;
}

/**
 * The links to the leaderboards and the bot ladder (the one shown left out).
 * @param {boolean | null} shown which one this page is (true: the ladder), null: neither
 * @param {string} [variant]
 * @param {number | string} [players]
 */
function boardLinks(shown, variant = "classic", players = 2) {
  const links = [];
  if (shown !== false) links.push(h("a", { href: leaderboardLink(variant, players) }, t("leaderboard.title")));
  if (shown !== true && runs("ladder")) links.push(h("a", { href: `/#/ladder/${variant}/${players}` }, t("ladder.title")));
  return h("p.links", {}, ...links.flatMap((link, i) => (i ? [" · ", link] : [link])));
}

/**
 * The leaderboard of `variant` at tables of `players`, with a choice of another; with `ladder`,
 * the bot ladder's standings ("/#/ladder/VARIANT/SIZE", its table `data-region="ladder"`).
 * @param {HTMLElement} app
 * @param {import("./types").Catalog} catalog
 * @param {string} variant
 * @param {string | number} players
 * @param {boolean} [ladder]
 */
export function leaderboardPage(app, catalog, variant, players, ladder = false) {
  const page = h("section.panel.leaderboard-page", { "aria-labelledby": "leaderboard-title" });
  /** @type {(v: string, n: string | number) => string} */
  const link = (v, n) => (ladder ? `/#/ladder/${v}/${n}` : leaderboardLink(v, n));
  app.append(page);
  const names = Object.keys(catalog.variants);
  const which = names.includes(variant) ? variant : "classic";
  const { fewest, most } = playerRange(catalog);
  const size = Number(players) >= fewest && Number(players) <= most ? Number(players) : fewest;
  const pick = h("select#leaderboard-variant", { "aria-label": t("lobby.variant") },
    names.map((n) => h("option", { value: n, selected: n === which }, t(`variant.${n}`))));
  const seats = h("input#leaderboard-players",
    { type: "number", min: String(fewest), max: String(most), value: String(size), inputmode: "numeric",
      "aria-label": t("lobby.players") });
  const go = h("button", { type: "button" }, t("leaderboard.show"));
  go.addEventListener("click", () => { location.hash = link(pick.value, seats.value).slice(1); });
  const title = ladder ? t("ladder.title") : t("leaderboard.title");
  page.append(h("h1#leaderboard-title", {}, title), h("div.row", {}, pick, seats, go));
  // What the page is: the ladder is bots', and says how one joins; a leaderboard says who is on it.
  const about = h("div.board-about");
  page.append(about);
  if (ladder) {
    const command = `unokit ladder join ${location.origin} --name NAME --token-file FILE --bot external:COMMAND`;
    about.append(h("p", {}, t("ladder.about")), h("p.hint", {}, t("ladder.join")), h("pre", {}, h("code", {}, command)));
  }
  (async () => {
    /** @type {{variant: string, players: number, places: LeaderboardPlace[], scale: RatingScale}} */
    let found;
    try {
      found = await api(`/api/${ladder ? "ladder" : "leaderboard"}?variant=${encodeURIComponent(which)}&players=${size}`);
    } catch (err) {
      page.append(h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    if (!ladder) about.append(h("p.hint", {}, t("n.leaderboard.about", { count: found.scale.active_days })));
    about.append(h("p.hint.rating-scale", {}, scaleWords(found.scale)));
    page.append(h("h2", {}, t("n.leaderboard.of", { variant: t(`variant.${found.variant}`), count: found.players })));
    if (!found.places.length) {
      page.append(h("p.none", {}, ladder ? t("ladder.empty") : t("leaderboard.empty")), boardLinks(ladder, which, size));
      return;
    }
    const table = h("table.games", { "data-region": ladder ? "ladder" : "leaderboard" }, h("caption.visually-hidden", {}, title));
    const heads = [t("daily.rank"), t("daily.player"), t("ratings.rating"), t("standings.games")];
    table.append(h("thead", {}, h("tr", {}, heads.map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, found.places.map((p) => h("tr", {}, h("td.num", {}, String(p.place)), h("td", {}, p.name),
        h("td.num", {}, number(p.rating, 1)), h("td.num", {}, number(p.games))))));
    page.append(table, boardLinks(ladder, which, size));
  })();
  return () => {};
}
