// Pages beside the game: the score sheet and the virtual launcher for real cards, and the
// step-by-step replay of a finished game. The server scores, fires and replays; these pages
// keep what the reader entered and draw the answers.

import { api } from "./net.js";
import { cardNode, faceOf } from "./cards.js";
import { animate, clear, h } from "./dom.js";
import { playSound } from "./sound.js";

/** Words for a snake_case name: "one_card" -> "one card". */
function words(name) {
  return String(name).replace(/_/g, " ");
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const SHEET_KEY = "unokit.sheet";

function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

// ---------------------------------------------------------------------- score sheet

export function sheetPage(app, catalog) {
  const page = h("div.tool.sheet");
  app.append(page);
  let sheet = JSON.parse(localStorage.getItem(SHEET_KEY) || "null");
  let message = null;

  const save = (reply) => {
    sheet = reply.sheet;
    localStorage.setItem(SHEET_KEY, JSON.stringify(sheet));
  };

  const call = async (path, body) => {
    try {
      const reply = await api(path, body);
      message = null;
      return reply;
    } catch (err) {
      message = err.message;
      draw();
      return null;
    }
  };

  function newForm() {
    const form = h("form.panel#sheet-new", { "aria-labelledby": "sheet-new-title" });
    const variant = h("select#sheet-variant", {}, Object.entries(catalog.variants).map(([n, v]) => h("option", { value: n }, v.title)));
    const players = h("input#sheet-players", { type: "text", required: true, placeholder: "Ana, Bo, Cy" });
    const scoring = h("select#sheet-scoring");
    const target = h("input#sheet-target", { type: "number", min: "1" });
    const rounds = h("input#sheet-rounds", { type: "number", min: "1", placeholder: "none" });
    const hint = h("span.hint#sheet-target-hint");
    const refresh = () => {
      const options = catalog.variants[variant.value].options;
      const scoringOption = options.find((o) => o.name === "scoring");
      const targetOption = options.find((o) => o.name === "target");
      const chosen = scoring.value || scoringOption.default;
      clear(scoring).append(...scoringOption.choices.map((c) => h("option", { value: c, selected: c === chosen }, words(c))));
      const byScoring = (targetOption.defaults_by || {}).scoring || {};
      const wanted = byScoring[scoring.value] ?? targetOption.default;
      target.placeholder = String(wanted);
      hint.textContent = `default: ${wanted}`;
    };
    variant.addEventListener("change", refresh);
    scoring.addEventListener("change", refresh);
    refresh();
    form.append(
      h("h2#sheet-new-title", {}, "A new score sheet"),
      h("div.field", {}, h("label", { for: "sheet-variant" }, "Variant"), variant),
      h("div.field", {}, h("label", { for: "sheet-players" }, "Players, in seating order, separated by commas"), players),
      h("div.row", {},
        h("div.field", {}, h("label", { for: "sheet-scoring" }, "Scoring"), scoring),
        h("div.field", {}, h("label", { for: "sheet-target" }, "Target"), target, hint),
        h("div.field", {}, h("label", { for: "sheet-rounds" }, "Rounds (optional)"), rounds)),
      h("button.primary", { type: "submit" }, "Start the sheet"),
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
    const variant = catalog.variants[sheet.variant];
    const form = h("form.panel#sheet-round", { "aria-labelledby": "sheet-round-title" });
    const winner = h("select#round-winner", {}, sheet.players.map((p) => h("option", { value: p }, p)));
    const side = h("select#round-side", {}, variant.side_names.map((s) => h("option", { value: s }, `${s} side`)));
    const hands = h("div.hands");
    const rows = sheet.players.map((player, i) => {
      const cards = h("input", { type: "text", id: `hand-${i}`, placeholder: "e.g. red 5 skip wild", "aria-describedby": `hand-${i}-hint` });
      const points = h("input", { type: "number", min: "0", id: `points-${i}`, "aria-label": `${player}: points already counted` });
      const row = h("div.hand-row", { dataset: { player } }, h("label", { for: `hand-${i}` }, `${player}'s cards`), cards, h("span.or", {}, "or"), points, h("span.hint", { id: `hand-${i}-hint` }, "points"));
      hands.append(row);
      return { player, cards, points, row };
    });
    const showRows = () => rows.forEach((r) => { r.row.hidden = r.player === winner.value; });
    winner.addEventListener("change", showRows);
    showRows();
    form.append(
      h("h2#sheet-round-title", {}, `Round ${sheet.rounds_played.length + 1}`),
      h("div.row", {}, h("div.field", {}, h("label", { for: "round-winner" }, "Who went out"), winner), variant.double_sided ? h("div.field", {}, h("label", { for: "round-side" }, "Side in play at the end"), side) : null),
      h("p.hint", {}, "Write what the others still hold (colours are optional: ", h("code", {}, "5 skip wild_draw_four"), "), or the points they counted."),
      hands,
      h("button.primary", { type: "submit" }, "Score the round"),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
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
    const table = h("table.sheet-table#sheet-table", {}, h("caption", {}, `${catalog.variants[sheet.variant].title}: scoring ${words(sheet.scoring)}, target ${sheet.target}${sheet.rounds ? `, ${plural(sheet.rounds, "round")}` : ""}`));
    table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Went out"), ...sheet.players.map((p) => h("th", { scope: "col" }, p)))));
    const body = h("tbody");
    for (const row of sheet.rounds_played) {
      body.append(h("tr", {}, h("td", {}, String(row.round)), h("td", {}, row.winner), ...row.points.map((v, i) => {
        const cards = row.hands[sheet.players[i]];
        return h("td", { title: cards ? cards.join(", ") : "" }, v ? `+${v}` : "·");
      })));
    }
    const totals = sheet.rounds_played.length ? sheet.rounds_played[sheet.rounds_played.length - 1].totals : sheet.players.map(() => 0);
    body.append(h("tr.totals", {}, h("th", { scope: "row", colspan: "2" }, "Total"), ...totals.map((t) => h("td", {}, String(t)))));
    table.append(body);
    return table;
  }

  function draw() {
    clear(page).append(h("h1", {}, "Score sheet"));
    if (message) page.append(errorBox(message));
    if (!sheet) {
      page.append(newForm());
      return;
    }
    page.append(h("div.table-scroll", {}, sheetTable()));
    const last = sheet.rounds_played[sheet.rounds_played.length - 1];
    const winners = last && last.winners;
    if (winners) page.append(h("p.game-over#sheet-over", { role: "status" }, `Game over: ${winners.join(" and ")} won.`));
    else page.append(roundForm());
    const blob = new Blob([JSON.stringify(sheet, null, 2)], { type: "application/json" });
    page.append(h("div.row", {},
      h("button", { type: "button", disabled: !sheet.rounds_played.length || undefined, onclick: async () => { const reply = await call("/api/sheet/undo", { sheet }); if (reply) { save(reply); draw(); } } }, "Take back the last round"),
      h("a.button", { href: URL.createObjectURL(blob), download: "scores.json" }, "Download (for unokit table)"),
      h("button.danger", { type: "button", onclick: () => { if (confirm("Start a new sheet? This one is forgotten.")) { sheet = null; localStorage.removeItem(SHEET_KEY); draw(); } } }, "New sheet")));
  }

  draw();
  return () => {};
}

// ---------------------------------------------------------------------- virtual launcher

export function launcherPage(app, catalog) {
  const page = h("div.tool.launcher-page");
  app.append(page);
  const models = ["random", "pattern", "one_card"];
  let state = JSON.parse(localStorage.getItem("unokit.launcher") || "null") || { model: "random" };
  let stats = null;
  let last = null;
  let busy = false;
  let error = null;

  const describe = {
    random: "fires at random, more often after silent presses (the default model)",
    pattern: "fires on the presses of the original launcher's repeating pattern",
    one_card: "gives exactly one card every press (plain drawing)",
  };

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
      error = err.message;
    }
    busy = false;
    draw();
    const machine = page.querySelector(".machine");
    if (last > 0) {
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
      error = err.message;
    }
    draw();
  }

  function draw() {
    clear(page).append(h("h1", {}, "Virtual launcher"));
    page.append(h("p", {}, "For UNO Attack and UNO Flip Attack with an ordinary deck: when a card says to press the launcher, press here and take from the draw pile the number of cards shown."));
    if (error) page.append(errorBox(error));
    const select = h("select#launcher-model", {}, models.map((m) => h("option", { value: m, selected: m === state.model }, words(m))));
    select.addEventListener("change", () => { state = { model: select.value }; last = null; draw(); });
    page.append(h("div.field", {}, h("label", { for: "launcher-model" }, "Model"), select, h("span.hint", {}, describe[state.model])));
    const result = last === null ? "Press it." : last === 0 ? "Nothing! Keep the cards you have." : `Take ${plural(last, "card")}!`;
    const machine = h("button.machine#launcher-press", { type: "button", "aria-describedby": "launcher-result", disabled: busy || undefined, onclick: press }, h("span.machine-top", { "aria-hidden": "true" }), h("span.machine-label", {}, "PRESS"));
    page.append(h("div.launcher-stage", {}, machine, h("p.launcher-result#launcher-result", { role: "status", "aria-live": "assertive", dataset: { cards: last === null ? "" : String(last) } }, result)));
    page.append(h("button#launcher-restart", { type: "button", onclick: restart }, "Reload or flip (restarts the launcher)"));
    if (stats) {
      const table = h("table.stats", {}, h("caption", {}, "What each model fires (computed from the engine's launcher models)"));
      table.append(h("thead", {}, h("tr", {}, ...["Model", "Presses that fire", "Presses to the first fire", "Cards per fire (mean ± sd)", "Cards per press (mean ± sd)"].map((t) => h("th", { scope: "col" }, t)))));
      const body = h("tbody");
      for (const model of models) {
        const s = stats[model];
        body.append(h("tr", {}, h("th", { scope: "row" }, words(model)), h("td", {}, `${(100 * s.fire_rate).toFixed(1)} %`), h("td", {}, s.presses_to_first_fire.toFixed(2)), h("td", {}, `${s.cards_per_fire_mean.toFixed(2)} ± ${s.cards_per_fire_sd.toFixed(2)}`), h("td", {}, `${s.cards_per_press_mean.toFixed(2)} ± ${s.cards_per_press_sd.toFixed(2)}`)));
      }
      table.append(body);
      page.append(h("div.table-scroll", {}, table));
    }
  }

  api("/api/launcher/stats").then((s) => { stats = s; draw(); }, () => {});
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

// ---------------------------------------------------------------------- replay

export function replayPage(app, catalog, code, number) {
  const page = h("div.tool.replay");
  app.append(page);
  let step = 0;
  let data = null;
  let error = null;
  let loading = false;

  async function load(wanted) {
    if (loading) return;
    loading = true;
    try {
      data = await api(`/api/rooms/${code}/records/${number}/replay?step=${wanted}`);
      step = data.step;
      error = null;
    } catch (err) {
      error = err.message;
    }
    loading = false;
    draw();
  }

  function draw() {
    clear(page).append(h("h1", {}, `Replay: room ${code}, game ${number}`));
    if (error) page.append(errorBox(error));
    if (!data) return;
    const obs = data.observation;
    const variant = catalog.variants[obs.variant];
    const side = Math.max(0, variant.side_names.indexOf(obs.side));
    const colors = variant.side_colors[side] || variant.side_colors[0];
    const controls = h("div.row.replay-controls", {},
      h("button#replay-first", { type: "button", onclick: () => load(0) }, "⏮ Start"),
      h("button#replay-prev", { type: "button", disabled: step === 0 || undefined, onclick: () => load(step - 1) }, "◀ Back"),
      h("span.step#replay-step", { role: "status" }, `step ${step} of ${data.steps}`),
      h("button#replay-next", { type: "button", disabled: step >= data.steps || undefined, onclick: () => load(step + 1) }, "Next ▶"),
      h("button#replay-last", { type: "button", onclick: () => load(data.steps) }, "End ⏭"));
    const slider = h("input#replay-slider", { type: "range", min: "0", max: String(data.steps), value: String(step), "aria-label": "step" });
    slider.addEventListener("change", () => load(Number(slider.value)));
    page.append(controls, slider);
    const what = data.action ? `${data.names[data.action.seat]}: ${data.action.text}` : "The deal";
    page.append(h("p.replay-action", {}, what), h("ul.replay-events", {}, data.narration.map((line) => h("li", {}, line))));
    const top = h("div.discard", {}, obs.top ? cardNode(obs.top, side, colors) : null);
    page.append(h("p", {}, `Round ${obs.round} · ${obs.side} side · ${obs.direction} · colour ${obs.color || "being chosen"} · scores ${obs.scores.join(", ")}`), top);
    const hands = h("div.replay-hands");
    obs.hands.forEach((hand, seat) => {
      const cards = h("div.mini-hand");
      hand.forEach((text) => cards.append(cardNode(faceOf(text, side), side, colors, { small: true })));
      hands.append(h(`section.replay-seat${obs.to_act === seat ? ".to-act" : ""}`, {}, h("h2", {}, `${data.names[seat]} (${plural(hand.length, "card")})`), cards));
    });
    page.append(hands);
    if (data.summary) page.append(h("p", {}, `Round ${data.summary.round} ends: ${data.names[data.summary.winner]} went out.`));
  }

  const key = (event) => {
    if (!data || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight" && step < data.steps) load(step + 1);
    if (event.key === "ArrowLeft" && step > 0) load(step - 1);
  };
  document.addEventListener("keydown", key);
  load(0);
  return () => document.removeEventListener("keydown", key);
}
