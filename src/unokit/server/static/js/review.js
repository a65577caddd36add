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
const MARK_WORDS = {
  good: N_("review.mark.good"),
  inaccuracy: N_("review.mark.inaccuracy"),
  mistake: N_("review.mark.mistake"),
  blunder: N_("review.mark.blunder"),
};
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

/** An SVG element. */
function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** The review of seat `seat` in game `number` of room `code`, asked of the server at once;
 * `redraw()` is called when it arrives (or fails). */
export class ReviewPanel {
  constructor(code, number, seat, redraw) {
    this.code = code;
    this.number = number;
    this.seat = seat;
    this.redraw = redraw;
    this.review = null;
    this.error = null;
    this.progress = 0;
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
    const steps = new Set();
    for (const moment of this.review.moments) steps.add(moment.step + 1);
    for (const decision of this.review.decisions) if (decision.mark !== "good") steps.add(decision.step + 1);
    return [...steps].sort((a, b) => a - b);
  }

  /** The panel for the replay at step `step` (`steps` in all); `go(step)` moves the replay. */
  node(step, steps, go) {
    if (this.error) return h("section.review-panel", {}, h("p.error", { role: "alert" }, this.error));
    if (!this.review) {
      return h(
        "section.review-panel",
        { "aria-busy": "true" },
        h("p.review-working#review-working", { role: "status" }, t("review.working", { percent: Math.round(100 * this.progress) })),
      );
    }
    const review = this.review;
    const counts = Object.entries(MARK_COUNTS).map(([mark, key]) => t(key, { count: review.marks[mark] }));
    const stops = this.stops();
    const before = stops.filter((s) => s < step);
    const after = stops.filter((s) => s > step);
    const at = stops.indexOf(step);
    const button = (id, label, text, to) =>
      h(`button.review-step#${id}`,
        { type: "button", title: label, "aria-label": label, disabled: to === undefined || undefined, onclick: () => go(to) }, text);
    return h(
      "section.review-panel#review",
      { "aria-label": t("review.moments") },
      h("p.review-marks", {}, t("review.marks", { marks: counts.join(t("list.separator")) })),
      this.graph(step, steps, go),
      h(
        "div.review-nav",
        {},
        button("review-prev", t("review.prev_moment"), "◀", before[before.length - 1]),
        h("span.review-count", {},
          at >= 0 ? t("review.stop_of", { number: at + 1, count: stops.length }) : t("n.review.stops", { count: stops.length })),
        button("review-next", t("review.next_moment"), "▶", after[0]),
      ),
      this.said(step),
    );
  }

  /** What the review says of the action that led to step `step` (the last move on the table). */
  said(step) {
    const review = this.review;
    const lines = [];
    const decision = review.decisions.find((d) => d.step + 1 === step);
    if (decision) {
      const played = decision.choices[decision.played];
      const best = decision.choices[decision.best];
      const markClass = `review-mark mark-${decision.mark}`;
      lines.push(
        h(
          "p.review-decision",
          { dataset: { mark: decision.mark } },
          h("strong", {}, say(played.line, review.names)),
          ` · ${chance(played.chance, played.game)} · `,
          h("span", { class: markClass }, t(MARK_WORDS[decision.mark])),
          decision.hinted ? ` · ${t("review.hinted")}` : "",
          decision.uno_missed ? ` · ${t("review.uno_missed")}` : "",
        ),
      );
      if (decision.best !== decision.played)
        lines.push(h("p.review-better", {},
          t("review.better", { best: say(best.line, review.names), chance: chance(best.chance, best.game) })));
    }
    const index = review.moments.findIndex((m) => m.step + 1 === step);
    if (index >= 0) {
      const moment = review.moments[index];
      lines.push(
        h(
          "p.review-moment",
          {},
          t("review.moment", {
            number: index + 1,
            step,
            round: moment.round,
            player: review.names[moment.seat],
            action: say(moment.line, review.names),
            before: percent(moment.before),
            after: percent(moment.after),
            what: t(MOMENT_WORDS[moment.kind]),
          }),
        ),
      );
    }
    return h("div.review-said", { "aria-live": "polite" }, lines);
  }

  /** The winning chance over the game: a line over every state, the rounds' borders, the costly
   * decisions as bars from the best choice's chance to the chosen one's, coloured by mark,
     the step shown as a cursor; a click goes to the nearest step. */
  graph(step, steps, go) {
    const review = this.review;
    const x = (s) => (WIDTH * s) / Math.max(1, steps);
    const y = (p) => HEIGHT - 4 - (HEIGHT - 8) * p;
    const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", class: "review-graph", role: "img" });
    chart.setAttribute("aria-label", t("review.graph.hand"));
    chart.append(svg("line", { x1: 0, x2: WIDTH, y1: y(0.5), y2: y(0.5), class: "half" }));
    for (const round of review.rounds.slice(1)) chart.append(svg("line",
      { x1: x(round.first), x2: x(round.first), y1: 0, y2: HEIGHT, class: "round" }));
    const points = review.points.map((p) => `${x(p.step).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" ");
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
