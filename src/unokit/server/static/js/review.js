// The review of a finished game, under its replay (replay.js): the seat's winning chance over the
// game as a graph, the decision or key moment of the step shown (the choice made, its chance and
// mark, the better choice), and buttons from one key moment to the next. The server computes the
// review in its bot pool (POST /api/rooms/CODE/records/N/review); the page asks until it is ready.

import { api, errorText, memory } from "./net.js";
import { h } from "./dom.js";
import { N_, percent, say, t } from "./i18n.js";

/** Milliseconds between two questions while the server computes the review. */
const POLL_MS = 1500;
/** The graph's drawing units (it is stretched to the panel's width). */
const WIDTH = 1000;
const HEIGHT = 100;
/** Each mark's word, in the catalogue (said by the review's words too). */
/**
 * @typedef {Object} ReviewChoice one choice of a decision, with the chance it kept
 * @property {import("./types").Line} line the choice in words
 * @property {number} chance the hand's winning chance after it (0 to 1)
 * @property {number | null} [game] the game's, where rounds are scored
 */

/**
 * @typedef {Object} ReviewDecision one of the seat's decisions, marked
 * @property {number} step the state it was taken at
 * @property {ReviewChoice[]} choices
 * @property {number} played the choice made
 * @property {number} best the best choice
 * @property {string} mark good, inaccuracy, mistake or blunder
 * @property {boolean} [hinted] whether a hint was used
 * @property {boolean} [uno_missed]
 */

/**
 * @typedef {Object} ReviewMoment a key moment: a decision, the luck of the draw or another's move
 * @property {number} step
 * @property {"decision" | "luck" | "move"} kind
 * @property {number} before the seat's chance before it
 * @property {number} after and after it
 * @property {number} [seat] who moved (a move's)
 * @property {import("./types").Line} [line] the move in words (a move's)
 */

/**
 * @typedef {Object} Review the review of a seat's game (unokit-review/1), or what is known of it
 * @property {number} seat
 * @property {string[]} names
 * @property {{step: number, actor: number, chance?: number}[]} points the chance at each state, and who acted after it
 * @property {ReviewDecision[]} [decisions]
 * @property {ReviewMoment[]} [moments]
 * @property {Record<string, number>} [marks] how many decisions got each mark
 * @property {{first: number}[]} [rounds] the first step of each round
 */

/** @typedef {Required<Review>} FullReview a review once computed */

/** @type {Record<string, string>} */
const MARK_WORDS = {
  good: N_("review.mark.good"),
  inaccuracy: N_("review.mark.inaccuracy"),
  mistake: N_("review.mark.mistake"),
  blunder: N_("review.mark.blunder"),
};
/** @type {Record<string, string>} */
const MARK_COUNTS = {
  good: N_("n.review.marks.good"),
  inaccuracy: N_("n.review.marks.inaccuracy"),
  mistake: N_("n.review.marks.mistake"),
  blunder: N_("n.review.marks.blunder"),
};
const MOMENT_WORDS = {
  decision: N_("review.moment.decision"),
  luck: N_("review.moment.luck"),
  move: N_("review.moment.move"),
};

/**
 * A chance (0 to 1) in percent, with the game's beside it where rounds are scored.
 * @param {number} hand
 * @param {number | null} [game]
 */
function chance(hand, game = null) {
  const shown = percent(hand);
  return game === null || game === undefined ? shown : t("review.with_game", { hand: shown, game: percent(game) });
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 */
function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** How many of its own moves seat `seat` had made up to the action after state `step` (that one
 * counted), from the review's points (each names the seat that acted after it).
 * @param {Review} review
 * @param {number} step
 */
function ownMove(review, step) {
  let count = 0;
  for (const point of review.points) if (point.actor === review.seat && point.step <= step) count += 1;
  return Math.max(1, count);
}

/** A decision said as a player would: "Your move 12: you chose “Draw a card” — mistake." and,
 * where another choice was better, "“Play Red 4” would have kept 61% instead of 48%."
 * @param {Review} review
 * @param {ReviewDecision} decision
 * @returns {string}
 */
export function decisionWords(review, decision) {
  const played = decision.choices[decision.played];
  const best = decision.choices[decision.best];
  const words = [t("review.said.decision", {
    number: ownMove(review, decision.step),
    action: say(played.line, review.names),
    mark: t(MARK_WORDS[decision.mark]),
    chance: chance(played.chance, played.game),
  })];
  if (decision.best !== decision.played)
    words.push(t("review.said.better", {
      best: say(best.line, review.names), better: chance(best.chance, best.game), chance: chance(played.chance, played.game),
    }));
  if (decision.hinted) words.push(t("review.said.hinted"));
  if (decision.uno_missed) words.push(t("review.said.uno_missed"));
  return words.join(" ");
}

/** A key moment said as a player would (a decision as above; another player's move or the
 * luck of the draw with how your chance moved).
 * @param {FullReview} review
 * @param {ReviewMoment} moment
 * @returns {string}
 */
function momentWords(review, moment) {
  const moved = { before: percent(moment.before), after: percent(moment.after) };
  if (moment.kind === "decision") {
    const decision = review.decisions.find((d) => d.step === moment.step);
    if (decision) return decisionWords(review, decision);
  }
  if (moment.kind === "luck") return t("review.said.luck", { number: ownMove(review, moment.step), ...moved });
  const mover = /** @type {number} a move's */ (moment.seat);
  const action = say(/** @type {import("./types").Line} */ (moment.line), review.names);
  return t("review.said.move", { player: review.names[mover], action, ...moved });
}

/** The review of seat `seat` in game `number` of room `code`, asked of the server at once;
 * `redraw()` is called when it arrives (or fails), and as its first decisions come. */
export class ReviewPanel {
  /**
   * @param {string} code
   * @param {number} number
   * @param {number} seat
   * @param {() => void} redraw
   */
  constructor(code, number, seat, redraw) {
    this.code = code;
    this.number = number;
    this.seat = seat;
    this.redraw = redraw;
    /** @type {FullReview | null} */
    this.review = null;
    /** @type {ReviewDecision[]} The seat's decisions marked so far, while the rest is computed (the 202 answers). */
    this.early = [];
    /** @type {string[]} */
    this.names = [];
    /** @type {number[]} The steps of the seat's own actions (to number its moves while the points are unknown). */
    this.own = [];
    /** @type {string | null} */
    this.error = null;
    this.progress = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.stopped = false;
    this.ask();
  }

  /** Ask the server for the review; again after POLL_MS while it is being computed. */
  async ask() {
    if (this.stopped) return;
    try {
      const answer = await api(`/api/rooms/${this.code}/records/${this.number}/review`, {
        player: memory.identity(),
        seat: this.seat,
      });
      if (answer.status === "ready") this.review = answer.review;
      else {
        this.progress = answer.total ? answer.done / answer.total : 0;
        if (answer.decisions && answer.decisions.length) {
          this.early = answer.decisions;
          this.names = answer.names || [];
          this.own = answer.own || [];
        }
        this.timer = setTimeout(() => this.ask(), POLL_MS);
      }
    } catch (err) {
      this.error = errorText(err);
    }
    if (!this.stopped) this.redraw();
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** The steps worth stopping at, in order: after each key moment and each costly decision. */
  stops() {
    const review = /** @type {FullReview} asked once it came */ (this.review);
    /** @type {Set<number>} */
    const steps = new Set();
    for (const moment of review.moments) steps.add(moment.step + 1);
    for (const decision of review.decisions) if (decision.mark !== "good") steps.add(decision.step + 1);
    return [...steps].sort((a, b) => a - b);
  }

  /** While the review is computed: the progress and the decisions marked so far, said. */
  working() {
    /** @type {Review} */
    const partial = { seat: this.seat, names: this.names, points: this.own.map((s) => ({ actor: this.seat, step: s })) };
    const said = this.early.map((decision) => h("li", { dataset: { mark: decision.mark } }, decisionWords(partial, decision)));
    return h(
      "section.review-panel",
      { "aria-busy": "true" },
      h("p.review-working#review-working", { role: "status" }, t("review.working", { percent: Math.round(100 * this.progress) })),
      said.length ? h("ol.review-early#review-early", { "aria-label": t("review.early") }, said) : null,
    );
  }

  /**
   * The panel for the replay at step `step` (`steps` in all); `go(step)` moves the replay.
   * @param {number} step
   * @param {number} steps
   * @param {(step: number) => void} go
   */
  node(step, steps, go) {
    if (this.error) return h("section.review-panel", {}, h("p.error", { role: "alert" }, this.error));
    if (!this.review) return this.working();
    const review = this.review;
    const counts = Object.entries(MARK_COUNTS).map(([mark, key]) => t(key, { count: review.marks[mark] }));
    const stops = this.stops();
    const before = stops.filter((s) => s < step);
    const after = stops.filter((s) => s > step);
    const at = stops.indexOf(step);
    /** @type {(id: string, label: string, text: string, to: number | undefined) => HTMLButtonElement} */
    const button = (id, label, text, to) =>
      h(`button.review-step#${id}`,
        { type: "button", title: label, "aria-label": label, disabled: to === undefined || undefined,
          onclick: () => go(/** @type {number} a button that is on */ (to)) }, text);
    return h(
      "section.review-panel#review",
      { "aria-label": t("review.moments") },
      h("p.review-marks", {}, t("review.marks", { marks: counts.join(t("list.separator")) })),
      this.said(step),
      h(
        "div.review-nav",
        {},
        button("review-prev", t("review.prev_moment"), "◀", before[before.length - 1]),
        h("span.review-count", {},
          at >= 0 ? t("review.stop_of", { number: at + 1, count: stops.length }) : t("n.review.stops", { count: stops.length })),
        button("review-next", t("review.next_moment"), "▶", after[0]),
      ),
      this.chart(step, steps, go),
      this.table(steps),
    );
  }

  /**
   * What the review says of the action that led to step `step` (the last move on the table).
   * @param {number} step
   */
  said(step) {
    const review = /** @type {FullReview} */ (this.review);
    /** @type {HTMLElement[]} */
    const lines = [];
    const decision = review.decisions.find((d) => d.step + 1 === step);
    if (decision) lines.push(h("p.review-decision", { dataset: { mark: decision.mark } }, decisionWords(review, decision)));
    const index = review.moments.findIndex((m) => m.step + 1 === step);
    if (index >= 0) {
      const moment = review.moments[index];
      lines.push(h("p.review-moment", {},
        h("strong", {}, t("review.marker", { number: index + 1 })), " ",
        moment.kind === "decision" && decision ? t(MOMENT_WORDS.decision) : momentWords(review, moment)));
    }
    return h("div.review-said", { "aria-live": "polite" }, lines);
  }

  /** The graph with its axes named: the chance from 0% to 100% up the side, the moves of the game
   * along the bottom, the key moments numbered on it (as in the table under it).
   * @param {number} step
   * @param {number} steps
   * @param {(step: number) => void} go
   */
  chart(step, steps, go) {
    const review = /** @type {FullReview} */ (this.review);
    const ticks = h("div.review-ticks", { "aria-hidden": "true" }, h("span", {}, percent(1)), h("span", {}, percent(0.5)),
      h("span", {}, percent(0)));
    const plot = h("div.review-plot", {}, this.graph(step, steps, go));
    review.moments.forEach((moment, i) => {
      const marker = h("span.review-marker", { "aria-hidden": "true" }, String(i + 1));
      marker.style.left = `${((100 * (moment.step + 1)) / Math.max(1, steps)).toFixed(1)}%`;
      marker.style.top = `${(100 * (1 - moment.after)).toFixed(1)}%`;
      plot.append(marker);
    });
    return h(
      "figure.review-chart",
      {},
      h("figcaption.review-axis-y", {}, t("review.graph.yours")),
      h("div.review-area", {}, ticks, plot),
      h("p.review-axis-x", { "aria-hidden": "true" }, t("review.graph.moves", { count: steps })),
    );
  }

  /** The graph as a table (its text alternative): each key moment and costly decision, the
   * move it came at, what happened, and your chance before and after.
   * @param {number} steps
   */
  table(steps) {
    const review = /** @type {FullReview} */ (this.review);
    /** @type {{ step: number, key?: number, moment?: ReviewMoment, decision?: ReviewDecision }[]} */
    const rows = [];
    review.moments.forEach((moment, i) => rows.push({ step: moment.step, key: i + 1, moment }));
    for (const decision of review.decisions)
      if (decision.mark !== "good" && !review.moments.some((m) => m.step === decision.step)) rows.push({ step: decision.step, decision });
    rows.sort((a, b) => a.step - b.step);
    const body = rows.map((row) => {
      // A row without a moment is a decision's.
      const decision = /** @type {ReviewDecision} */ (row.decision || review.decisions.find((d) => d.step === row.step));
      const words = row.moment ? momentWords(review, row.moment) : decisionWords(review, decision);
      const from = row.moment ? row.moment.before : decision.choices[decision.best].chance;
      const to = row.moment ? row.moment.after : decision.choices[decision.played].chance;
      return h("tr", {},
        h("th", { scope: "row" }, t("review.table.move", { number: row.step + 1, count: steps })),
        h("td", {}, row.key ? `${t("review.marker", { number: row.key })} ${words}` : words),
        h("td", {}, t("review.table.from_to", { before: percent(from), after: percent(to) })));
    });
    return h(
      "details.review-table#review-table",
      {},
      h("summary", {}, t("review.table.show")),
      h("table", {},
        h("caption", {}, t("review.table.caption")),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("review.table.when")),
          h("th", { scope: "col" }, t("review.table.what")),
          h("th", { scope: "col" }, t("review.table.chance")))),
        h("tbody", {}, body.length ? body : h("tr", {}, h("td", { colspan: "3" }, t("review.no_moments"))))),
    );
  }

  /** The winning chance over the game: a line over every state, the rounds' borders, the costly
   * decisions as bars from the best choice's chance to the chosen one's, coloured by mark,
     the step shown as a cursor; a click goes to the nearest step.
   * @param {number} step
   * @param {number} steps
   * @param {(step: number) => void} go
   */
  graph(step, steps, go) {
    const review = /** @type {FullReview} */ (this.review);
    /** @param {number} s */
    const x = (s) => (WIDTH * s) / Math.max(1, steps);
    /** @param {number} p */
    const y = (p) => HEIGHT - (HEIGHT * p);
    const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", class: "review-graph", role: "img" });
    chart.setAttribute("aria-label", t("review.graph.described"));
    for (const p of [0.25, 0.5, 0.75])
      chart.append(svg("line", { x1: 0, x2: WIDTH, y1: y(p), y2: y(p), class: p === 0.5 ? "half" : "grid" }));
    for (const round of review.rounds.slice(1)) chart.append(svg("line",
      { x1: x(round.first), x2: x(round.first), y1: 0, y2: HEIGHT, class: "round" }));
    const points = review.points
      .map((p) => `${x(p.step).toFixed(1)},${y(/** @type {number} a computed review's */ (p.chance)).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points, class: "chance" }));
    chart.append(svg("line", { x1: x(step), x2: x(step), y1: 0, y2: HEIGHT, class: "cursor" }));
    for (const decision of review.decisions) {
      if (decision.mark === "good") continue;
      const chosen = decision.choices[decision.played].chance;
      const best = decision.choices[decision.best].chance;
      const at = x(decision.step + 1);
      chart.append(svg("line", { x1: at, x2: at, y1: y(best), y2: y(chosen), class: `mark mark-${decision.mark}` }));
    }
    chart.addEventListener("click", (event) => {
      const box = chart.getBoundingClientRect();
      go(Math.round(((event.clientX - box.left) / Math.max(1, box.width)) * steps));
    });
    return chart;
  }
}
