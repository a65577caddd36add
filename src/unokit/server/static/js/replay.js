// The replay of a finished game on the table itself: the same table the players had (table.js,
// drawn read-only), as any seat saw it, step by step, with the log's words beside it (the
// drawer, docked at a desk) and the last move in words at the centre. Its controls take the
// place of the decision: start, back, play or pause, next, end, a slider over every step and
// whose view to show. The server replays the record: a room's finished game
// (GET /api/rooms/CODE/records/N/replay) or a replay file the reader opens on /#/replay
// (POST /api/replay, the record travelling with each step; docs/formats.md, "Replay files"),
// both by the same code, and both drawn by the same table and controls here.

import { api, errorText } from "./net.js";
import { clear, h } from "./dom.js";
import { N_, t } from "./i18n.js";
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
 * @typedef {Object} AgentAnswer one text answer of an agent (a replay file's meta.kaggle)
 * @property {string} text
 * @property {string} [refusal] why it named no legal move (none for the answer that did)
 */

/**
 * @typedef {Object} AgentDecision one decision of a replay file's agent (meta.kaggle, version 1)
 * @property {number} step the actions played before it
 * @property {number} seat
 * @property {AgentAnswer[]} [answers] a text agent's answers (none for an agent that answered an id)
 * @property {boolean} [random] no answer named a legal move: a random one was made
 */

/**
 * @typedef {Object} ReplaySource where a replay's steps come from: a room's finished game or a file
 * @property {(step: number, seat: number, withLog: boolean) => Promise<ReplayStep>} fetch a step as the server replays it
 * @property {string} code the room ("" for a file)
 * @property {number} number the game's number in its room (1 for a file)
 * @property {() => string} title the page's title
 * @property {AgentDecision[]} decisions a replay file's agents' decisions (none for a room's game)
 * @property {boolean} reviewed whether the review of the seat's game is shown under it (a room's game)
 */

/** Why an agent's answer named no legal move, in words (unokit/llm/harness.py `Refusal`). */
/** @type {Record<string, string>} */
const REFUSALS = {
  empty: N_("replay.refusal.empty"),
  too_long: N_("replay.refusal.too_long"),
  no_move: N_("replay.refusal.no_move"),
  not_legal: N_("replay.refusal.not_legal"),
};

/**
 * The room a replay's table is drawn for: the record's seats, nobody to act for. A seat's bot
 * is named by its strength when the catalogue knows it; a bot it does not know (an agent of a
 * replay file) is shown by the seat's name alone.
 * @param {ReplayStep} data the replay step as the server sent it
 * @param {number} number the game's number in its room
 * @param {import("./types").Catalog} catalog the server's catalogue
 * @returns {import("./types").Room} the part of a room a read-only table reads
 */
function replayRoom(data, number, catalog) {
  /** @param {string | null | undefined} bot */
  const known = (bot) => Boolean(bot && (catalog.bots.includes(bot) || bot.startsWith("policy:")));
  const seats = data.seats.map((seat, index) => ({
    seat: index,
    kind: seat.kind === "bot" && known(seat.bot) ? "bot" : "human",
    name: seat.name,
    bot: known(seat.bot) ? seat.bot : null,
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
  return replayTable(app, catalog, {
    fetch: (step, view, withLog) =>
      api(`/api/rooms/${code}/records/${number}/replay?step=${step}&seat=${view}${withLog ? "&log=1" : ""}`),
    code,
    number,
    title: () => (reviewed ? t("review.page_title", { code, number }) : t("replay.title", { code, number })),
    decisions: [],
    reviewed,
  }, seat);
}

/**
 * The replay page of a file (/#/replay): the reader opens or drops a replay file (a unokit
 * record: a game downloaded from My games, saved by unokit play, or written by a Kaggle-style
 * episode) and it replays on the table with the same controls as a room's game; an agent's
 * answers that the file keeps are shown beside the move they made.
 * @param {HTMLElement} app the page's main element
 * @param {import("./types").Catalog} catalog the server's catalogue
 * @returns {() => void} what to do when the page is left
 */
export function fileReplayPage(app, catalog) {
  const input = h("input#replay-file-input", { type: "file", accept: ".json,application/json" });
  const problem = h("p.error", { role: "alert" });
  const page = h(
    "section.panel.replay-file",
    { "aria-labelledby": "replay-file-title", "data-region": "replay-file" },
    h("h1#replay-file-title", {}, t("replay.file_page")),
    h("p.hint", {}, t("replay.file_hint")),
    h("p.file-row", {}, h("label", { for: "replay-file-input" }, t("replay.open_file")), " ", input),
    h("p.drop-hint", {}, t("replay.drop_file")),
    problem,
  );
  app.append(page);
  /** @type {(() => void) | null} */
  let leave = null;

  /** @param {string} text what went wrong, in words */
  const refuse = (text) => {
    problem.textContent = text;
    input.value = "";
  };

  /**
   * Open `file`: read it, have the server replay its first step, then show the replay.
   * @param {File} file
   */
  async function open(file) {
    problem.textContent = "";
    /** @type {any} a file's JSON, read as a record below */
    let record;
    let text = "";
    try {
      text = await file.text();
      record = JSON.parse(text);
    } catch (err) {
      refuse(t("replay.file_unreadable"));
      return;
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) {
      refuse(t("replay.file_unreadable"));
      return;
    }
    const meta = record.meta && typeof record.meta === "object" ? record.meta : {};
    const kaggle = meta.kaggle && typeof meta.kaggle === "object" ? meta.kaggle : {};
    /** @type {AgentDecision[]} */
    const decisions = kaggle.version === 1 && Array.isArray(kaggle.decisions) ? kaggle.decisions : [];
    // The server replays the game from the file's own text (JSON.parse would round a 64-bit
    // seed); what else the file keeps (an agent's answers, under meta) is the page's to show.
    const sent = withoutMember(text, "meta");
    const size = new TextEncoder().encode(JSON.stringify({ record: sent, step: 0, seat: 0, log: true })).length;
    if (size > catalog.replay_file_bytes) {
      refuse(t("replay.file_too_large", { number: Math.floor(catalog.replay_file_bytes / 1024) }));
      return;
    }
    /** @type {ReplaySource["fetch"]} */
    const fetch = (step, view, withLog) => api("/api/replay", { record: sent, step, seat: view, log: withLog });
    try {
      await fetch(0, 0, false); // refused here, the reader may choose another file
    } catch (err) {
      refuse(errorText(err));
      return;
    }
    page.remove();
    const name = file.name;
    leave = replayTable(app, catalog, {
      fetch, code: "", number: 1, title: () => t("replay.file_title", { name }), decisions, reviewed: false,
    }, 0);
  }

  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    if (file) open(file);
  });
  page.addEventListener("dragover", (event) => {
    event.preventDefault();
    page.classList.add("dragging");
  });
  page.addEventListener("dragleave", () => page.classList.remove("dragging"));
  page.addEventListener("drop", (event) => {
    event.preventDefault();
    page.classList.remove("dragging");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) open(file);
  });
  return () => {
    if (leave) leave();
  };
}

/**
 * Where the JSON string that starts at `start` of `text` ends (just after its closing quote).
 * @param {string} text
 * @param {number} start
 * @returns {number}
 */
function stringEnd(text, start) {
  let i = start + 1;
  while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/**
 * Where the JSON value that starts at `start` of `text` ends.
 * @param {string} text
 * @param {number} start
 * @returns {number}
 */
function valueEnd(text, start) {
  if (text[start] === '"') return stringEnd(text, start);
  if (text[start] !== "{" && text[start] !== "[") {
    let i = start;
    while (i < text.length && !/[\s,\]}]/.test(text[i])) i += 1;
    return i;
  }
  let depth = 0;
  let i = start;
  do {
    if (text[i] === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (text[i] === "{" || text[i] === "[") depth += 1;
    else if (text[i] === "}" || text[i] === "]") depth -= 1;
    i += 1;
  } while (depth > 0 && i < text.length);
  return i;
}

/**
 * `text`, a JSON object's text (valid: JSON.parse read it), with the value of its member `name`
 * replaced by `{}`, the rest as it is written: no number rounded, as JSON.parse would round it.
 * @param {string} text
 * @param {string} name
 * @returns {string}
 */
function withoutMember(text, name) {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      let next = end;
      while (/\s/.test(text[next] || "")) next += 1;
      if (depth === 1 && text[next] === ":" && JSON.parse(text.slice(i, end)) === name) {
        next += 1;
        while (/\s/.test(text[next] || "")) next += 1;
        return `${text.slice(0, next)}{}${text.slice(valueEnd(text, next))}`;
      }
      i = end;
      continue;
    }
    if (c === "{" || c === "[") depth += 1;
    else if (c === "}" || c === "]") depth -= 1;
    i += 1;
  }
  return text;
}

/**
 * The answers an agent gave for the move drawn at `step` (the decisions open one step before),
 * as a replay file keeps them; null when there are none.
 * @param {AgentDecision[]} decisions
 * @param {number} step
 * @param {string[]} names the seats' names
 * @returns {HTMLElement | null}
 */
function answersNode(decisions, step, names) {
  const shown = decisions.filter((d) => d.step === step - 1 && Array.isArray(d.answers) && d.answers.length);
  if (!shown.length) return null;
  return h(
    "details.replay-answers",
    { dataset: { region: "answers" } },
    h("summary", {}, t("replay.answers")),
    shown.map((d) => h(
      "div.replay-answer",
      {},
      h("p.answer-by", {}, t("replay.answer_of", { player: names[d.seat] ?? String(d.seat) })),
      (d.answers || []).map((answer) => h(
        "figure.answer",
        {},
        h("pre.answer-text", {}, String(answer.text)),
        answer.refusal && REFUSALS[answer.refusal] ? h("figcaption.answer-refused", {}, t(REFUSALS[answer.refusal])) : null,
      )),
      d.random ? h("p.hint.answer-random", {}, t("replay.random_move")) : null,
    )),
  );
}

/**
 * A replay on the table, its steps from `source`, first as `seat` saw it.
 * @param {HTMLElement} app the page's main element
 * @param {import("./types").Catalog} catalog the server's catalogue
 * @param {ReplaySource} source
 * @param {number} seat whose view to show first
 * @returns {() => void} what to do when the page is left
 */
function replayTable(app, catalog, source, seat) {
  const { code, number, reviewed } = source;
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
        /** @type {ReplayStep} */
        const found = await source.fetch(asked, seen, !log);
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
      room: replayRoom(data, number, catalog),
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
  const title = source.title;

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
      answersNode(source.decisions, step, shown.names),
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
