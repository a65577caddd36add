// Motion of the table, as the server's events say: a played card travels from its player to the
// discard pile, drawn and dealt cards from the pile (or the launcher) to their hand, the whole
// table turns over on a flip, the launcher shakes when it fires, a seat jumps when it calls
// UNO. Each animation is shorter than 400 ms (MAX_MS) and none runs when the reader asked for
// reduced motion. The positions before a redraw are taken by snapshot() and the animations
// start from them after it (the FLIP technique, with the Web Animations API).
//
// The first animation of each server state leaves the User Timing mark "unokit:anim" (with the
// state's version as its detail), which the measurements compare with the "unokit:state" mark
// left when the state arrived.

import { reducedMotion } from "./dom.js";

export const MAX_MS = 380;
const EASE = "cubic-bezier(.2,.7,.3,1)";

/**
 * @typedef {Object} Boxes where things were before a redraw
 * @property {Map<string, DOMRect[]>} cards the reader's cards, by face (a face may be held twice)
 * @property {Map<string, DOMRect>} anchors the seats and the piles, by their data-anchor
 */

/**
 * The boxes of everything that moves, before a redraw.
 * @param {HTMLElement} root
 * @returns {Boxes}
 */
export function snapshot(root) {
  /** @type {Boxes} */
  const boxes = { cards: new Map(), anchors: new Map() };
  root.querySelectorAll(/** @type {"div"} */ ("[data-anchor]"))
    .forEach((node) => boxes.anchors.set(/** @type {string} */ (node.dataset.anchor), node.getBoundingClientRect()));
  root.querySelectorAll(/** @type {"button"} */ (".hand-card")).forEach((node) => {
    const card = /** @type {string} */ (node.dataset.card);
    const list = boxes.cards.get(card) || [];
    list.push(node.getBoundingClientRect());
    boxes.cards.set(card, list);
  });
  return boxes;
}

/** @returns {HTMLElement} the layer the flying cards are drawn in */
function layer() {
  let node = /** @type {HTMLElement | null} */ (document.querySelector(".fly-layer"));
  if (!node) {
    node = document.createElement("div");
    node.className = "fly-layer";
    node.setAttribute("aria-hidden", "true");
    document.body.append(node);
  }
  return node;
}

class Motion {
  /** @param {number} version the state's, for the first animation's mark */
  constructor(version) {
    this.version = version;
    this.started = false;
  }

  /**
   * @param {Element | null} node
   * @param {Keyframe[]} keyframes
   * @param {KeyframeAnimationOptions & {duration?: number, delay?: number}} options
   * @returns {Animation | null}
   */
  run(node, keyframes, options) {
    if (!node || !node.animate) return null;
    if (!this.started) {
      this.started = true;
      performance.mark("unokit:anim", { detail: this.version });
    }
    const animation = node.animate(keyframes,
      { easing: EASE, fill: "backwards", ...options, duration: Math.min(options.duration || MAX_MS, MAX_MS - (options.delay || 0)) });
    return animation;
  }

  /**
   * Move `node` from the box `from` to where it is now.
   * @param {Element | null} node
   * @param {DOMRect | null | undefined} from
   * @param {number} [duration]
   * @param {number} [delay]
   */
  from(node, from, duration = 320, delay = 0) {
    if (!node || !from) return;
    const to = node.getBoundingClientRect();
    if (!to.width) return;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    const scale = Math.max(0.3, Math.min(2, from.width / to.width));
    this.run(node, [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.6 }, { transform: "none", opacity: 1 }],
      { duration, delay });
  }

  /**
   * A card back flying from one box to another (for hands that are not drawn card by card).
   * @param {DOMRect | null | undefined} from
   * @param {DOMRect | null | undefined} to
   * @param {number} count
   * @param {Element} template the card back to copy
   */
  fly(from, to, count, template) {
    if (!from || !to) return;
    const box = layer();
    for (let i = 0; i < Math.min(count, 4); i++) {
      const ghost = /** @type {HTMLElement} */ (template.cloneNode(true));
      ghost.classList.add("ghost");
      ghost.style.left = `${from.left}px`;
      ghost.style.top = `${from.top}px`;
      box.append(ghost);
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      const animation = this.run(ghost,
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.2 }],
        { duration: 300, delay: i * 25, fill: "both" });
      const done = () => ghost.remove();
      if (animation) animation.finished.then(done, done);
      else done();
    }
  }
}

/**
 * Animate what `events` did, from the boxes taken before the redraw. `me` is the reader's
 * seat (null for a spectator).
 * @param {HTMLElement} root
 * @param {Boxes | null} before
 * @param {import("./types").GameEvent[]} events
 * @param {number | null} me
 * @param {number} version
 */
export function animateEvents(root, before, events, me, version) {
  if (!before || reducedMotion() || !events.length) return;
  const motion = new Motion(version);
  /** @param {string} name */
  const anchor = (name) => root.querySelector(`[data-anchor="${name}"]`);
  /** @param {number | undefined} seat */
  const seatBox = (seat) => (seat === me ? before.anchors.get("hand") : before.anchors.get(`seat-${seat}`));
  /** @param {number | undefined} seat */
  const nowBox = (seat) => {
    const node = seat === me ? anchor("hand") : anchor(`seat-${seat}`);
    return node ? node.getBoundingClientRect() : null;
  };
  const back = root.querySelector('[data-anchor="draw"] .card') || root.querySelector(".card");
  const oldCards = new Map([...before.cards].map(([key, list]) => [key, [...list]]));
  const newCards = [...root.querySelectorAll(/** @type {"button"} */ (".hand-card"))].filter((node) => {
    const list = oldCards.get(/** @type {string} */ (node.dataset.card));
    if (list && list.length) {
      list.shift();
      return false;
    }
    return true;
  });
  let arrived = 0;
  for (const event of events) {
    const type = event.type;
    if (type === "play" || type === "discard") {
      const card = event.card || (event.cards || [])[0];
      const fromMine = event.seat === me && card ? (before.cards.get(card) || [])[0] : null;
      motion.from(root.querySelector(".discard .card.top"), fromMine || seatBox(event.seat), 300);
    } else if ((type === "draw" || type === "deal" || type === "press" || type === "take_back")
      && (event.count || (event.cards || []).length)) {
      const count = event.count || /** @type {string[]} */ (event.cards).length;
      const from = before.anchors.get("draw") || (anchor("draw") && /** @type {Element} */ (anchor("draw")).getBoundingClientRect());
      if (event.seat === me) {
        newCards.slice(arrived, arrived + count).forEach((node, i) => motion.from(node, from, 260, Math.min(110, i * 18)));
        arrived += count;
      } else if (back) {
        motion.fly(from, nowBox(event.seat), count, back);
      }
      if (type === "press") {
        const launcher = anchor("draw");
        if (launcher) motion.run(launcher, event.fired
          ? [{ transform: "none" }, { transform: "scale(1.12) rotate(-4deg)" }, { transform: "scale(.96) rotate(3deg)" },
            { transform: "none" }]
          : [{ transform: "none" }, { transform: "translateY(6px)" }, { transform: "none" }], { duration: event.fired ? 340 : 180 });
      }
    } else if (type === "flip") {
      const table = root.querySelector('[data-region="table"] .centre');
      motion.run(table,
        [{ transform: "perspective(700px) rotateY(0)" }, { transform: "perspective(700px) rotateY(90deg)" },
          { transform: "perspective(700px) rotateY(0)" }],
        { duration: 360 });
    } else if (type === "uno" || type === "catch") {
      const seat = type === "uno" ? event.seat : event.target;
      const node = seat === me ? anchor("hand") : anchor(`seat-${seat}`);
      motion.run(node, [{ transform: "none" }, { transform: "scale(1.08)" }, { transform: "none" }], { duration: 300 });
    } else if (type === "trade" || type === "pass_hands") {
      root.querySelectorAll('[data-anchor^="seat-"]').forEach((node) => motion.run(node, [{ opacity: 0.4 }, { opacity: 1 }],
        { duration: 300 }));
    }
  }
}
