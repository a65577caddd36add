// The replay of a finished game on the table itself: the same table the players had (table.js,
// drawn read-only), as any seat saw it, step by step, with the log's words beside it (the
// drawer, docked at a desk) and the last move in words at the centre. Its controls take the
// place of the decision: start, back, play or pause, next, end, a slider over every step and
// whose view to show. The server replays the record (GET /api/rooms/CODE/records/N/replay).

import { api, errorText } from "./net.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { pageTools } from "./page.js";
import { ReviewPanel } from "./review.js";
import { TableView } from "./table.js";

/** Milliseconds between two steps while the replay plays. */
const PLAY_MS = 900;

/** The controls' symbols, drawn (a 24-unit square each): to the start, a step back, play,
 * pause, a step on, to the end. */
/** @type {Record<string, string>} */
const ICONS = {
  first: "M4 5h2v14H4z M13 5v14l-7-7z M21 5v14l-7-7z",
  prev: "M6 5h2v14H6z M18 5v14l-9-7z",
  play: "M7 4v16l13-8z",
  pause: "M6 5h4v14H6z M14 5h4v14h-4z",
  next: "M6 5v14l9-7z M16 5h2v14h-2z",
  last: "M3 5v14l7-7z M11 5v14l7-7z M18 5h2v14h-2z",
};

/**
 * A control's symbol as an SVG.
 * @param {string} name a key of ICONS
 * @returns {SVGElement}
 */
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "replay-icon");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * @typedef {Object} ReplayStep a step of a finished game (GET /api/rooms/CODE/records/N/replay, web.py `replay_step`)
 * @property {number} step
 * @property {number} steps how many steps the game has
 * @property {string[]} names the seats' names
 * @property {{name: string, kind: string, bot?: string | null}[]} seats the record's seats
 * @property {number | null} seat whose view it is (null: everything shown)
 * @property {import("./types").Observation} observation
 * @property {import("./types").Line[]} lines what the step's action did
 * @property {import("./types").RoundSummary | null} summary
 * @property {number[]} round_starts
 * @property {{step: number, lines: import("./types").Line[]}[]} [log] every step's lines (asked with log=1)
 */

/**
 * The room a replay's table is drawn for: the record's seats, nobody to act for.
 * @param {ReplayStep} data the replay step as the server sent it
 * @param {number} number the game's number in its room
 * @returns {import("./types").Room} the part of a room a read-only table reads
 */
function replayRoom(data, number) {
  const seats = data.seats.map((seat, index) => ({
    seat: index,
    kind: seat.kind === "bot" ? "bot" : "human",
    name: seat.name,
    bot: seat.bot || null,
  }));
  const over = data.step >= data.steps && data.observation.over;
  const obs = data.observation;
  return /** @type {import("./types").Room} */ (/** @type {unknown} */ ({
    seats,
    phase: over ? "finished" : "playing",
    game_no: number,
    host_seat: null,
    settings: {},
    away: [],
    spectators: 0,
    variant: obs.variant,
    options: obs.options,
  }));
}

/**
 * The replay page of game `number` of room `code`, first as `seat` saw it (a seat number; 0
 * when none is given); with `reviewed`, the review of that seat's game under it (review.js).
 * @param {HTMLElement} app the page's main element
 * @param {import("./types").Catalog} catalog the server's catalogue
 * @param {string} code the room
 * @param {number} number the game
 * @param {number} seat whose view to show first
 * @param {boolean} reviewed whether to show the review of `seat`'s game
 * @returns {() => void} what to do when the page is left
 */
export function replayPage(app, catalog, code, number, seat = 0, reviewed = false) {
  const page = h("div.room.replay-page");
  const root = h(reviewed ? "div.table-root.replay-root.review-root" : "div.table-root.replay-root");
  app.append(page);
  document.body.classList.add("at-table");
  let step = 0; // the step drawn
  let wanted = 0; // the step asked for: the controls count from it, so quick clicks all count
  let view = Number.isInteger(seat) && seat >= 0 ? seat : 0;
  /** @type {ReplayStep | null} */
  let data = null;
  /** @type {ReplayStep["log"] | null} the game's log for the view shown: [{step, lines}] */
  let log = null;
  /** @type {string | null} */
  let error = null;
  let loading = false;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  /** @type {{busy: boolean, isHost: boolean, seat: number | null}} */
  const conn = { busy: false, isHost: false, seat: null };
  // A stand-in for the connection: a read-only table sends nothing.
  const stand = /** @type {import("./net.js").RoomConnection} */ (/** @type {unknown} */ (conn));
  const table = new TableView(root, stand, code, { readOnly: true, controls: () => controls() });
  const review = reviewed ? new ReviewPanel(code, number, view, () => draw()) : null;

  /** Load the step asked for (as the seat in view saw it) and draw it; asked again meanwhile,
   * the newest step asked is loaded next. */
  async function load() {
    if (loading) return;
    loading = true;
    for (;;) {
      const asked = wanted;
      const seen = view;
      try {
        const query = `step=${asked}&seat=${seen}${log ? "" : "&log=1"}`;
        /** @type {ReplayStep} */
        const found = await api(`/api/rooms/${code}/records/${number}/replay?${query}`);
        data = found;
        if (found.log) log = seen === view ? found.log : null; // a log of another view: asked again
        step = found.step;
        error = null;
      } catch (err) {
        error = errorText(err);
        if (!data) view = 0;
        wanted = step;
        break;
      }
      if (asked === wanted && seen === view) break;
    }
    loading = false;
    draw();
  }

  /** Draw the table at the loaded step: its log up to that step, its last move at the centre. */
  function draw() {
    if (error && !data) {
      clear(page).append(h("h1", {}, title()), h("p.error", { role: "alert" }, error));
      return;
    }
    if (!data) return;
    if (!root.isConnected) clear(page).append(root);
    conn.seat = view;
    const groups = (log || []).filter((entry) => entry.step <= step);
    // The state a read-only table reads (no message of the server: the replay's own).
    table.update(/** @type {import("./types").State} */ (/** @type {unknown} */ ({
      version: step,
      seat: view,
      room: replayRoom(data, number),
      game_step: step,
      observation: data.observation,
      events: [],
      lines: [],
      log: groups,
      summary: data.summary || undefined,
    })));
    pageTools([
      h(
        "button.tool.drawer-toggle",
        {
          type: "button",
          title: t("table.sidebar"),
          "aria-label": t("table.sidebar"),
          "aria-expanded": "false",
          dataset: { toggles: "drawer" },
          onclick: () => table.toggleDrawer(),
        },
        "☰",
      ),
    ]);
  }

  /** Play the replay from here, a step every PLAY_MS, or pause it. */
  function playPause() {
    if (timer) {
      clearInterval(timer);
      timer = null;
    } else {
      if (data && wanted >= data.steps) {
        wanted = 0;
        load();
      }
      timer = setInterval(() => {
        if (!data || wanted >= data.steps) playPause();
        else if (!loading) {
          wanted += 1;
          load();
        }
      }, PLAY_MS);
    }
    draw();
  }

  /**
   * Go to a step (pausing first when it is the reader's own choice).
   * @param {number} to
   */
  function go(to) {
    if (timer) playPause();
    wanted = Math.max(0, Math.min(data ? data.steps : 0, to));
    load();
  }

  /** The page's title: the replay's, or the review's. */
  function title() {
    return reviewed ? t("review.page_title", { code, number }) : t("replay.title", { code, number });
  }

  /** The replay's controls, in the place of the decision (the review under them). */
  function controls() {
    // Asked by the table, which is drawn once a step came.
    const shown = /** @type {ReplayStep} */ (data);
    const steps = shown.steps;
    /** @type {(id: string, label: string, name: string, action: () => void, off?: boolean) => HTMLButtonElement} */
    const button = (id, label, name, action, off = false) =>
      h(
        `button.replay-button#${id}`,
        { type: "button", title: label, "aria-label": label, disabled: off || undefined, onclick: action },
        icon(name),
      );
    const slider = h("input#replay-slider", {
      type: "range",
      min: "0",
      max: String(steps),
      value: String(step),
      "aria-label": t("replay.step"),
    });
    slider.addEventListener("change", () => go(Number(slider.value)));
    const whose = h(
      "select#replay-seat",
      { "aria-label": t("replay.view") },
      shown.names.map((name, index) =>
        h("option", { value: String(index), selected: index === view || undefined }, t("replay.view_of", { player: name })),
      ),
    );
    whose.addEventListener("change", () => {
      view = Number(whose.value);
      log = null;
      load();
    });
    const playing = Boolean(timer);
    return h(
      "section.replay-bar",
      { "data-region": "replay", "aria-label": t("replay.controls") },
      h("h1.replay-title", {}, title()),
      h(
        "div.replay-buttons",
        {},
        button("replay-first", t("replay.first"), "first", () => go(0), wanted === 0),
        button("replay-prev", t("replay.back"), "prev", () => go(wanted - 1), wanted === 0),
        button("replay-play", playing ? t("replay.pause") : t("replay.play"), playing ? "pause" : "play", playPause),
        button("replay-next", t("replay.next"), "next", () => go(wanted + 1), wanted >= steps),
        button("replay-last", t("replay.last"), "last", () => go(steps), wanted >= steps),
        whose,
      ),
      h(
        "div.replay-slider-row",
        {},
        slider,
        h("span.step#replay-step", { role: "status" }, t("replay.step_of", { step, steps })),
      ),
      error ? h("p.error", { role: "alert" }, error) : null,
      review ? review.node(step, steps, go) : null,
    );
  }

  /** @param {KeyboardEvent} event */
  const key = (event) => {
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (!data || (target && ["INPUT", "SELECT"].includes(target.tagName))) return;
    if (event.key === "ArrowRight" && wanted < data.steps) go(wanted + 1);
    else if (event.key === "ArrowLeft" && wanted > 0) go(wanted - 1);
    else if (event.key === " ") {
      playPause();
      event.preventDefault();
    }
  };
  document.addEventListener("keydown", key);
  load();
  return () => {
    if (timer) clearInterval(timer);
    if (review) review.stop();
    document.removeEventListener("keydown", key);
    table.destroy();
    document.body.classList.remove("at-table");
  };
}
