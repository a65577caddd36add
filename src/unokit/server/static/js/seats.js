// The other players around the table and where they sit: each seat's box (avatar and turn ring,
// card count, name, level or presence, points, marks, and on a double-sided deck the backs the
// seat shows, grouped by colour with counts), and the layout that places the seats along the
// edges of the table and the centre (piles, colour, direction, side, the last move) where no
// seat covers it, on any screen and for any number of players.

import { t } from "./i18n.js";
import { colorTitle, faceTitle, parseFace, symbolGlyph } from "./cards.js";
import { h } from "./dom.js";

/** Space kept between two seats, and between a seat and the edge or the centre. */
const GAP = 6;
const PAD = 4;

/** The seat sizes tried in turn until every seat and the centre fit: the full box, a compact
 * one (smaller type, no level), a minimal one (avatar, count and name). */
export const SEAT_SIZES = ["full", "compact", "mini"];

/**
 * The backs a seat shows, by colour: one group per colour (the order of the side's colours,
 * wilds last) with how many cards of it the seat holds.
 * @param {string[]} backs the faces of the seat's cards on the other side
 * @param {string[]} colors the colours of that side, in order
 * @returns {{color: (string|null), count: number, faces: string[]}[]}
 */
export function backGroups(backs, colors) {
  /** @type {Map<string | null, string[]>} */
  const groups = new Map();
  for (const face of backs) {
    const { color } = parseFace(face);
    if (!groups.has(color)) groups.set(color, []);
    /** @type {string[]} */ (groups.get(color)).push(face);
  }
  /** @param {string | null} color */
  const rank = (color) => (color === null ? 99 : Math.max(0, colors.indexOf(color)));
  return [...groups.entries()]
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([color, faces]) => ({ color, count: faces.length, faces }));
}

/**
 * The backs of a seat's cards as coloured counts that stay inside the seat ("▲ 2 ● 1 ★ 1"); the
 * cards themselves in its accessible name and tooltip.
 * @param {string[]} backs the faces on the side not in play
 * @param {string[]} colors that side's colours
 * @param {string} player the seat's name
 * @returns {HTMLElement}
 */
export function backsBox(backs, colors, player) {
  const words = backs.map((face) => faceTitle(face)).join(t("list.separator"));
  const label = `${t("seat.backs_label", { player })}: ${words}`;
  const box = h("div.backs", { role: "img", "aria-label": label, title: words });
  for (const group of backGroups(backs, colors)) {
    const name = group.color ? colorTitle(group.color) : t("card.wild");
    box.append(
      h(
        `span.back-group.c-${group.color || "multi"}`,
        { title: `${name}: ${group.faces.map(faceTitle).join(t("list.separator"))}` },
        h("span.back-sym", { "aria-hidden": "true" }, symbolGlyph(group.color)),
        String(group.count),
      ),
    );
  }
  return box;
}

/** @typedef {number[]} Box a box [x, y, w, h] */

/**
 * Two boxes [x, y, w, h] overlap (closer than `margin`).
 * @param {Box} a
 * @param {Box} b
 * @param {number} [margin]
 */
function overlap(a, b, margin = 0) {
  return a[0] < b[0] + b[2] + margin && b[0] < a[0] + a[2] + margin && a[1] < b[1] + b[3] + margin && b[1] < a[1] + a[3] + margin;
}

/**
 * Whether any two of `boxes` overlap.
 * @param {Box[]} boxes
 */
function anyOverlap(boxes) {
  return boxes.some((a, i) => boxes.some((b, j) => j > i && overlap(a, b, 2)));
}

/**
 * The seats on the upper half of an ellipse (its ends lowered by `lower` degrees for many seats),
 * in the order of play from the reader's left.
 * @param {number[][]} sizes each seat's [w, h]
 * @param {number} width
 * @param {number} height
 * @param {number} lower
 * @returns {number[][]} the boxes [x, y, w, h]
 */
function arcBoxes(sizes, width, height, lower) {
  const w = Math.max(...sizes.map((s) => s[0]));
  const hgt = Math.max(...sizes.map((s) => s[1]));
  const rad = (lower * Math.PI) / 180;
  const rx = Math.max(0, width / 2 - w / 2 - PAD);
  const ry = Math.max(0, height / 2 - hgt / 2 - PAD);
  return sizes.map(([sw, sh], i) => {
    const angle = Math.PI - rad + ((i + 1) * (Math.PI + 2 * rad)) / (sizes.length + 1);
    const x = width / 2 + rx * Math.cos(angle);
    const y = Math.min(height - hgt / 2 - PAD, height / 2 + ry * Math.sin(angle));
    return [x - sw / 2, y - sh / 2, sw, sh];
  });
}

/**
 * The seats along the left edge (from the bottom up), the top and the right edge (from the top
 * down), `side` of them on each side and the rest on top; null when they do not fit.
 * @param {number[][]} sizes each seat's [w, h]
 * @param {number} width
 * @param {number} height
 * @param {number} side
 * @returns {number[][]|null}
 */
function edgeBoxes(sizes, width, height, side) {
  const m = sizes.length;
  const w = Math.max(...sizes.map((s) => s[0]));
  const hgt = Math.max(...sizes.map((s) => s[1]));
  const top = m - 2 * side;
  if (top < 0) return null;
  if (side * (hgt + GAP) - GAP > height - 2 * PAD) return null;
  const inner = side > 0 ? width - 2 * (PAD + w + GAP) : width - 2 * PAD;
  if (top * (w + GAP) - GAP > inner) return null;
  /** @type {Box[]} */
  const boxes = [];
  /** @param {number} k */
  const sideY = (k) => PAD + k * (hgt + GAP);
  for (let k = side - 1; k >= 0; k--) boxes.push([PAD, sideY(k), w, hgt]);
  const slot = top ? inner / top : 0;
  const left = side > 0 ? PAD + w + GAP : PAD;
  for (let k = 0; k < top; k++) boxes.push([left + slot * k + (slot - w) / 2, PAD, w, hgt]);
  for (let k = 0; k < side; k++) boxes.push([width - PAD - w, sideY(k), w, hgt]);
  return boxes.map((box, i) => [box[0] + (w - sizes[i][0]) / 2, box[1], sizes[i][0], sizes[i][1]]);
}

/**
 * Where the centre (`cw` x `ch`) goes among the seats: centred across, as near the middle of
 * the space below the seats at the top as it can be without touching a seat or `keepOut`;
 * null when there is no such place.
 * @param {Box[]} boxes
 * @param {number} width
 * @param {number} height
 * @param {number} cw
 * @param {number} ch
 * @param {number} keepOut the height kept clear at the bottom
 * @returns {number[]|null} [x, y]
 */
function centreSpot(boxes, width, height, cw, ch, keepOut) {
  const x = (width - cw) / 2;
  if (x < 0) return null;
  const column = boxes.filter((b) => b[0] < x + cw + GAP && x < b[0] + b[2] + GAP);
  const band = Math.max(0, ...column.filter((b) => b[1] < height / 3).map((b) => b[1] + b[3]));
  const bottom = height - keepOut;
  const ideal = Math.max(band + GAP, (band + bottom - ch) / 2);
  /** @param {number} y */
  const fits = (y) => y >= 0 && y + ch <= bottom && !boxes.some((b) => overlap(b, [x, y, cw, ch], GAP));
  for (let d = 0; d <= height; d += 4) {
    if (fits(ideal + d)) return [x, ideal + d];
    if (fits(ideal - d)) return [x, ideal - d];
  }
  return null;
}

/**
 * Every way of placing `sizes` seats in a `width` x `height` table, the nicest first: on an arc
 * (a few seats), in one row along the top, along the edges with ever more seats at the sides.
 * @param {number[][]} sizes each seat's [w, h]
 * @param {number} width
 * @param {number} height
 * @returns {number[][][]}
 */
function arrangements(sizes, width, height) {
  /** @type {Box[][]} */
  const out = [];
  if (sizes.length <= 6) for (const lower of [0, 15, 30, 45]) out.push(arcBoxes(sizes, width, height, lower));
  for (let side = 0; side <= Math.ceil(sizes.length / 2); side++) {
    const boxes = edgeBoxes(sizes, width, height, side);
    if (boxes) out.push(boxes);
  }
  return out.filter((boxes) => !anyOverlap(boxes));
}

/** The forms of the centre, tried in turn: the caption under the piles, then beside them (a
 * table too low for the first, with many seats). The table carries it as data-centre. */
const CENTRE_FORMS = ["column", "row"];

/** The widths tried for the last move's caption, the widest first (a wide caption keeps the
 * centre low). */
const CAPTION_WIDTHS = [320, 260, 210, 170, 130, 110];

/**
 * Place the seats and the centre of a drawn table: the first arrangement, at the largest seat
 * size that has one, where no two seats touch and the centre (its caption as wide as room
 * allows) fits without touching a seat; the table's notes, at its bottom, are kept clear of the
 * centre too. The table carries the size chosen as data-seats ("full", "compact", "mini") and
 * the form of the centre as data-centre.
 * @param {HTMLElement} region the table (data-region="table")
 */
export function layoutTable(region) {
  const width = region.clientWidth;
  const height = region.clientHeight;
  const centre = /** @type {HTMLElement | null} */ (region.querySelector(".centre"));
  if (!width || !height || !centre) return;
  const notes = /** @type {HTMLElement | null} */ (region.querySelector(".notes"));
  const keepOut = notes && notes.offsetHeight ? notes.offsetHeight + PAD : 0;
  const seats = [...region.querySelectorAll(/** @type {"div"} */ (".seat"))];
  const captions = CAPTION_WIDTHS.filter((w) => w <= width - 2 * PAD);
  const caption = /** @type {HTMLElement | null} */ (centre.querySelector(".last-move"));
  if (caption) caption.classList.remove("sr-only");
  /** @returns {{boxes: number[][], spot: number[]} | null} */
  const search = () => {
    for (const form of CENTRE_FORMS) {
      region.dataset.centre = form;
      for (const size of SEAT_SIZES) {
        region.dataset.seats = size;
        const sizes = seats.map((s) => [s.offsetWidth, s.offsetHeight]);
        const found = placeCentre(region, centre, sizes.length ? arrangements(sizes, width, height) : [[]], captions, keepOut);
        if (found) return found;
      }
    }
    return null;
  };
  let chosen = search();
  if (!chosen && caption && caption.textContent) {
    // No room for the last move's caption beside the piles (a long move, many seats, a small
    // screen): it is kept for screen readers only, and the table laid out without it; the
    // move is in the log, and the announcer says it.
    caption.classList.add("sr-only");
    chosen = search();
  }
  if (!chosen) {
    // Nothing fits (a very small window): the edges with the seats as small as they get, the
    // centre in the middle.
    const sizes = seats.map((s) => [s.offsetWidth, s.offsetHeight]);
    const boxes = edgeBoxes(sizes, width, height, Math.ceil(sizes.length / 3)) || arcBoxes(sizes, width, height, 45);
    chosen = { boxes, spot: [(width - centre.offsetWidth) / 2, Math.max(0, (height - centre.offsetHeight) / 2)] };
  }
  const placed = chosen;
  seats.forEach((seat, i) => {
    seat.style.left = `${Math.round(placed.boxes[i][0])}px`;
    seat.style.top = `${Math.round(placed.boxes[i][1])}px`;
  });
  centre.style.left = `${Math.round(placed.spot[0])}px`;
  centre.style.top = `${Math.round(placed.spot[1])}px`;
}

/**
 * The first of `layouts` (seat boxes) with a place for the centre, trying its caption at each
 * of `captions` widths, the widest first; null when none has one.
 * @param {HTMLElement} region
 * @param {HTMLElement} centre
 * @param {number[][][]} layouts
 * @param {number[]} captions
 * @param {number} keepOut
 * @returns {{boxes: number[][], spot: number[]}|null}
 */
function placeCentre(region, centre, layouts, captions, keepOut) {
  const width = region.clientWidth;
  const height = region.clientHeight;
  for (const boxes of layouts) {
    for (const caption of captions.length ? captions : [CAPTION_WIDTHS.at(-1)]) {
      region.style.setProperty("--caption-w", `${caption}px`);
      const spot = centreSpot(boxes, width, height, centre.offsetWidth, centre.offsetHeight, keepOut);
      if (spot) return { boxes, spot };
    }
  }
  return null;
}
