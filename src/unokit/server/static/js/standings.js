// Standings at a table: the games a room played, who won how many, with their points and hands
// won ("/#/standings/CODE"), and the link to them at the end of each game; downloadable as CSV.

import { api, errorText } from "./net.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @typedef {Object} StandingsPlace a line of a room's standings (/api/rooms/CODE/standings)
 * @property {string} kind the seat's kind (human, bot)
 * @property {number} place
 * @property {string} name
 * @property {number} games
 * @property {number} wins
 * @property {number} points
 * @property {number} rounds_won
 */

/**
 * The link to room `code`'s standings (opened beside the table, which stays as it is).
 * @param {string} code
 */
export function standingsLink(code) {
  return h("a.button#standings-link", { href: `/#/standings/${code}`, target: "_blank", rel: "noopener" }, t("standings.title"));
}

/**
 * The standings page of room `code`.
 * @param {HTMLElement} app
 * @param {string} code
 */
export function standingsPage(app, code) {
  const page = h("section.panel.standings-page", { "aria-labelledby": "standings-title" });
  app.append(page);
  page.append(h("h1#standings-title", {}, t("standings.of_room", { code })));
  (async () => {
    /** @type {{games: unknown[], places: StandingsPlace[]}} */
    let found;
    try {
      found = await api(`/api/rooms/${code}/standings`);
    } catch (err) {
      page.append(h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    page.append(h("p", {}, t("n.standings.games", { count: found.games.length })));
    const table = h("table.games", { "data-region": "standings" }, h("caption.visually-hidden", {}, t("standings.title")));
    const heads = [t("daily.rank"), t("daily.player"), t("standings.games"), t("standings.wins"), t("standings.points"),
      t("standings.rounds")];
    table.append(h("thead", {}, h("tr", {}, heads.map((title) => h("th", { scope: "col" }, title)))));
    // Each number carries its column's name (data-label), which a phone shows beside it.
    /** @type {(column: number, value: number) => HTMLTableCellElement} */
    const cell = (column, value) => h("td.num", { dataset: { label: heads[column] } }, String(value));
    table.append(h("tbody", {}, found.places.map((place) => h("tr", { dataset: { kind: place.kind } },
      h("td.num", {}, String(place.place)), h("td.who", {}, place.name),
      cell(2, place.games), cell(3, place.wins), cell(4, place.points), cell(5, place.rounds_won)))));
    page.append(table, h("p.links", {},
      h("a.button.download", { href: `/api/rooms/${code}/standings?format=csv`, download: `unokit-${code}-standings.csv` },
        t("standings.download")),
      " ", h("a", { href: `/r/${code}` }, t("standings.back"))));
  })();
  return () => {};
}
