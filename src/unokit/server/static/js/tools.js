// Pages beside the game: the score sheet and the virtual launcher for real cards. The server
// scores and fires; these pages keep what the reader entered and draw the answers. (The replay
// of a finished game is on the table itself: replay.js.)

import { api, errorText } from "./net.js";
import { animate, clear, h } from "./dom.js";
import { playSound } from "./sound.js";
import { t } from "./i18n.js";

const SHEET_KEY = "unokit.sheet";

/** @param {string} message */
function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

// ---------------------------------------------------------------------- score sheet

/**
 * @typedef {Object} SheetRound a round scored on the sheet
 * @property {number} round
 * @property {string} winner who went out
 * @property {number[]} points what each player gained
 * @property {Record<string, string[]>} hands the cards each player was left with, where entered
 * @property {number[]} totals
 * @property {string[]} [winners] the game's winners, once it is over
 */

/**
 * @typedef {Object} Sheet a score sheet as the server keeps it (POST /api/sheet/...)
 * @property {string} variant
 * @property {string[]} players
 * @property {string} scoring
 * @property {number} target
 * @property {number | null} rounds how many rounds are played (null: to the target)
 * @property {SheetRound[]} rounds_played
 */

/**
 * The score sheet for a game of real cards.
 * @param {HTMLElement} app
 * @param {import("./types").Catalog} catalog
 * @returns {() => void} what to do when the page is left
 */
export function sheetPage(app, catalog) {
  const page = h("div.tool.sheet");
  app.append(page);
  /** @type {Sheet | null} */
  let sheet = JSON.parse(localStorage.getItem(SHEET_KEY) || "null");
  /** @type {string | null} */
  let message = null;

  /** @param {{sheet: Sheet}} reply */
  const save = (reply) => {
    sheet = reply.sheet;
    localStorage.setItem(SHEET_KEY, JSON.stringify(sheet));
  };

  /**
   * @param {string} path
   * @param {unknown} body
   * @returns {Promise<{sheet: Sheet} | null>} the answer, or null when refused (said on the page)
   */
  const call = async (path, body) => {
    try {
      const reply = await api(path, body);
      message = null;
      return reply;
    } catch (err) {
      message = errorText(err);
      draw();
      return null;
    }
  };

  function newForm() {
    const form = h("form.panel#sheet-new", { "aria-labelledby": "sheet-new-title" });
    const variant = h("select#sheet-variant", {}, Object.keys(catalog.variants).map((n) => h("option", { value: n }, t(`variant.${n}`))));
    const players = h("input#sheet-players", { type: "text", required: true, placeholder: t("sheet.players_example") });
    const scoring = h("select#sheet-scoring");
    const target = h("input#sheet-target", { type: "number", min: "1" });
    const rounds = h("input#sheet-rounds", { type: "number", min: "1", placeholder: t("lobby.none") });
    const hint = h("span.hint#sheet-target-hint");
    const refresh = () => {
      const options = catalog.variants[variant.value].options;
      // Every variant has both.
      const scoringOption = /** @type {import("./types").OptionInfo} */ (options.find((o) => o.name === "scoring"));
      const targetOption = /** @type {import("./types").OptionInfo} */ (options.find((o) => o.name === "target"));
      const chosen = scoring.value || scoringOption.default;
      const choices = /** @type {string[]} a choice's */ (scoringOption.choices);
      clear(scoring).append(...choices.map((c) => h("option", { value: c, selected: c === chosen },
        t(`option.scoring.${c}`))));
      const byScoring = (targetOption.defaults_by || {}).scoring || {};
      const wanted = byScoring[scoring.value] ?? targetOption.default;
      target.placeholder = String(wanted);
      hint.textContent = t("lobby.default", { value: String(wanted) });
    };
    variant.addEventListener("change", refresh);
    scoring.addEventListener("change", refresh);
    refresh();
    form.append(
      h("h2#sheet-new-title", {}, t("sheet.new")),
      h("div.field", {}, h("label", { for: "sheet-variant" }, t("lobby.variant")), variant),
      h("div.field", {}, h("label", { for: "sheet-players" }, t("sheet.players")), players),
      h("div.row", {},
        h("div.field", {}, h("label", { for: "sheet-scoring" }, t("option.scoring")), scoring),
        h("div.field", {}, h("label", { for: "sheet-target" }, t("option.target")), target, hint),
        h("div.field", {}, h("label", { for: "sheet-rounds" }, t("sheet.rounds")), rounds)),
      h("button.primary", { type: "submit" }, t("sheet.start")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const reply = await call("/api/sheet/new", {
        variant: variant.value,
        players: players.value.split(",").map((p) => p.trim()).filter(Boolean),
        scoring: scoring.value,
        target: target.value ? Number(target.value) : null,
        rounds: rounds.value ? Number(rounds.value) : null,
      });
      if (reply) {
        save(reply);
        draw();
      }
    });
    return form;
  }

  function roundForm() {
    const current = /** @type {Sheet} drawn once there is a sheet */ (sheet);
    const variant = catalog.variants[current.variant];
    const form = h("form.panel#sheet-round", { "aria-labelledby": "sheet-round-title" });
    const winner = h("select#round-winner", {}, current.players.map((p) => h("option", { value: p }, p)));
    const side = h("select#round-side", {},
      variant.side_names.map((s) => h("option", { value: s }, t("table.side_value", { side: t(`side.${s}`) }))));
    const hands = h("div.hands");
    const rows = current.players.map((player, i) => {
      const cards = h("input",
        { type: "text", id: `hand-${i}`, placeholder: t("sheet.cards_example"), "aria-describedby": `hand-${i}-hint` });
      const points = h("input", { type: "number", min: "0", id: `points-${i}`, "aria-label": t("sheet.points_counted", { player }) });
      const row = h("div.hand-row", { dataset: { player } }, h("label", { for: `hand-${i}` }, t("sheet.cards_of", { player })), cards,
        h("span.or", {}, t("sheet.or")), points, h("span.hint", { id: `hand-${i}-hint` }, t("sheet.points")));
      hands.append(row);
      return { player, cards, points, row };
    });
    const showRows = () => rows.forEach((r) => { r.row.hidden = r.player === winner.value; });
    winner.addEventListener("change", showRows);
    showRows();
    form.append(
      h("h2#sheet-round-title", {}, t("sheet.round", { round: current.rounds_played.length + 1 })),
      h("div.row", {}, h("div.field", {}, h("label", { for: "round-winner" }, t("sheet.went_out")), winner),
        variant.double_sided ? h("div.field", {}, h("label", { for: "round-side" }, t("sheet.side_at_end")), side) : null),
      h("p.hint", {}, t("sheet.hands_hint")),
      hands,
      h("button.primary", { type: "submit" }, t("sheet.score_round")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      /** @type {{sheet: Sheet | null, winner: string, side: string | null,
       *   hands: Record<string, string>, points: Record<string, number>}} */
      const body = { sheet, winner: winner.value, side: variant.double_sided ? side.value : null, hands: {}, points: {} };
      for (const r of rows) {
        if (r.player === winner.value) continue;
        if (r.points.value !== "") body.points[r.player] = Number(r.points.value);
        else body.hands[r.player] = r.cards.value;
      }
      const reply = await call("/api/sheet/round", body);
      if (reply) {
        save(reply);
        draw();
      }
    });
    return form;
  }

  function sheetTable() {
    const current = /** @type {Sheet} drawn once there is a sheet */ (sheet);
    const facts = { variant: t(`variant.${current.variant}`), scoring: t(`option.scoring.${current.scoring}`), target: current.target };
    const caption = current.rounds ? t("sheet.caption_rounds",
      { ...facts, rounds: t("n.rounds", { count: current.rounds }) }) : t("sheet.caption", facts);
    const table = h("table.sheet-table#sheet-table", {}, h("caption", {}, caption));
    table.append(h("thead", {},
      h("tr", {}, h("th", { scope: "col" }, t("table.round")), h("th", { scope: "col" }, t("sheet.went_out")),
      ...current.players.map((p) => h("th", { scope: "col" }, p)))));
    const body = h("tbody");
    for (const row of current.rounds_played) {
      body.append(h("tr", {}, h("td", {}, String(row.round)), h("td", {}, row.winner), ...row.points.map((v, i) => {
        const cards = row.hands[current.players[i]];
        return h("td", { title: cards ? cards.join(t("list.separator")) : "" }, v ? `+${v}` : "·");
      })));
    }
    const played = current.rounds_played;
    const totals = played.length ? played[played.length - 1].totals : current.players.map(() => 0);
    body.append(h("tr.totals", {}, h("th", { scope: "row", colspan: "2" }, t("summary.total")),
      ...totals.map((total) => h("td", {}, String(total)))));
    table.append(body);
    return table;
  }

  function draw() {
    clear(page).append(h("h1", {}, t("ui.nav.sheet")));
    if (message) page.append(errorBox(message));
    if (!sheet) {
      page.append(newForm());
      return;
    }
    page.append(h("div.table-scroll", { tabindex: "0" }, sheetTable())); // scrolled by keys too
    const last = sheet.rounds_played[sheet.rounds_played.length - 1];
    const winners = last && last.winners;
    if (winners) page.append(h("p.game-over#sheet-over", { role: "status" },
      t("table.game_over", { winners: winners.join(t("list.separator")) })));
    else page.append(roundForm());
    const blob = new Blob([JSON.stringify(sheet, null, 2)], { type: "application/json" });
    page.append(h("div.row", {},
      h("button",
        { type: "button", disabled: !sheet.rounds_played.length || undefined,
          onclick: async () => { const reply = await call("/api/sheet/undo", { sheet }); if (reply) { save(reply); draw(); } } },
        t("sheet.undo")),
      h("a.button", { href: URL.createObjectURL(blob), download: "scores.json" }, t("sheet.download")),
      h("button.danger",
        { type: "button",
          onclick: () => { if (confirm(t("sheet.new_confirm"))) { sheet = null; localStorage.removeItem(SHEET_KEY); draw(); } } },
        t("sheet.new_sheet"))));
  }

  draw();
  return () => {};
}

// ---------------------------------------------------------------------- virtual launcher

/**
 * @typedef {Object} LauncherStats how a launcher model behaves (GET /api/launcher/stats)
 * @property {number} fire_rate
 * @property {number} presses_to_first_fire
 * @property {number} cards_per_fire_mean
 * @property {number} cards_per_fire_sd
 * @property {number} cards_per_press_mean
 * @property {number} cards_per_press_sd
 */

/**
 * The virtual launcher for a game of real cards.
 * @param {HTMLElement} app
 * @param {import("./types").Catalog} catalog
 * @returns {() => void} what to do when the page is left
 */
export function launcherPage(app, catalog) {
  const page = h("div.tool.launcher-page");
  app.append(page);
  // The launcher's models: the choices of the catalogue's launcher option (the variants with a
  // launcher share it), less the scripted one, which only tests use.
  const launcher = Object.values(catalog.variants).flatMap((v) => v.options).find((o) => o.name === "launcher");
  const models = /** @type {string[]} a choice's */ (launcher && launcher.choices).filter((c) => c !== "scripted");
  let state = JSON.parse(localStorage.getItem("unokit.launcher") || "null") || { model: "random" };
  /** @type {Record<string, LauncherStats> | null} */
  let stats = null;
  /** @type {number | null} the cards the last press fired */
  let last = null;
  let busy = false;
  /** @type {string | null} */
  let error = null;

  async function press() {
    if (busy) return;
    busy = true;
    draw();
    playSound("press");
    try {
      const reply = await api("/api/launcher/press", { state });
      state = reply.state;
      last = reply.cards;
      error = null;
      localStorage.setItem("unokit.launcher", JSON.stringify(state));
    } catch (err) {
      error = errorText(err);
    }
    busy = false;
    draw();
    const machine = page.querySelector(".machine");
    if (last !== null && last > 0) {
      animate(machine, "anim-fire");
      playSound("fire");
    } else if (last === 0) {
      animate(machine, "anim-press");
    }
  }

  async function restart() {
    try {
      state = (await api("/api/launcher/restart", { state })).state;
      last = null;
      localStorage.setItem("unokit.launcher", JSON.stringify(state));
    } catch (err) {
      error = errorText(err);
    }
    draw();
  }

  function draw() {
    clear(page).append(h("h1", {}, t("launcher.title")));
    page.append(h("p", {}, t("launcher.intro")));
    if (error) page.append(errorBox(error));
    const select = h("select#launcher-model", {},
      models.map((m) => h("option", { value: m, selected: m === state.model }, t(`option.launcher.${m}`))));
    select.addEventListener("change", () => { state = { model: select.value }; last = null; draw(); });
    page.append(h("div.field", {}, h("label", { for: "launcher-model" }, t("launcher.model")), select,
      h("span.hint", {}, t(`launcher.model.${state.model}`))));
    const result = last === null ? t("launcher.press_it") : last === 0 ? t("launcher.nothing") : t("n.launcher.take", { count: last });
    const machine = h("button.machine#launcher-press",
      { type: "button", "aria-describedby": "launcher-result", disabled: busy || undefined, onclick: press },
      h("span.machine-top", { "aria-hidden": "true" }), h("span.machine-label", {}, t("launcher.press")));
    page.append(h("div.launcher-stage", {}, machine,
      h("p.launcher-result#launcher-result",
      { role: "status", "aria-live": "assertive", dataset: { cards: last === null ? "" : String(last) } }, result)));
    page.append(h("button#launcher-restart", { type: "button", onclick: restart }, t("launcher.restart")));
    if (stats) {
      const table = h("table.stats", {}, h("caption", {}, t("launcher.stats")));
      const heads = [t("launcher.model"), t("launcher.stats.fire_rate"), t("launcher.stats.first_fire"), t("launcher.stats.per_fire"),
        t("launcher.stats.per_press")];
      table.append(h("thead", {}, h("tr", {}, ...heads.map((head) => h("th", { scope: "col" }, head)))));
      const body = h("tbody");
      for (const model of models) {
        const s = stats[model];
        body.append(h("tr", {}, h("th", { scope: "row" }, t(`option.launcher.${model}`)),
          h("td", {}, `${(100 * s.fire_rate).toFixed(1)} %`), h("td", {}, s.presses_to_first_fire.toFixed(2)),
          h("td", {}, `${s.cards_per_fire_mean.toFixed(2)} ± ${s.cards_per_fire_sd.toFixed(2)}`),
          h("td", {}, `${s.cards_per_press_mean.toFixed(2)} ± ${s.cards_per_press_sd.toFixed(2)}`)));
      }
      table.append(body);
      page.append(h("div.table-scroll", { tabindex: "0" }, table)); // scrolled by keys too
    }
  }

  api("/api/launcher/stats").then((s) => { stats = s; draw(); }, () => {});
  /** @param {KeyboardEvent} event */
  const key = (event) => {
    if ((event.key === " " || event.key === "Enter") && event.target === document.body) {
      event.preventDefault();
      press();
    }
  };
  document.addEventListener("keydown", key);
  draw();
  return () => document.removeEventListener("keydown", key);
}
