// Cards drawn as SVG: every face of every variant, from the server's catalogue (/api/catalog).
// A face is text in the engine's notation: "red 5", "teal skip_everyone", "wild_draw_color".
// A double-sided card is "light face/dark face"; faceOf() picks the side in play.
//
// The design is unokit's own: a coloured body carrying the colour's colour-blind symbol as a
// large emblem, the value or an icon in the middle and in two corners (the top-left corner
// alone tells a card in a fanned hand), wilds marked by the four symbols in their colours, and
// a back with unokit's mark. The action cards whose icon alone does not say what they do (UNO
// Attack's, Flip Attack's and the themed editions', and Skip Everyone) print their short name
// under the icon, in the reader's language, in place of the lower corner. Nothing here imitates
// another publisher's card art.

import { N_, cardTitle, colorName, lang, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** @type {import("./types").Catalog | null} */
let CATALOG = null;
/** @type {Map<string, {name: string, wild: boolean, index: number}>} each card kind, with its place in the catalogue */
const KINDS = new Map();
/** @type {Map<string, {name: string, symbol: string, index: number}>} each colour, with its place in the catalogue */
const COLORS = new Map();
/** The colour-blind marks of unokit's own mark (the logo, the card backs): UNO Flip Attack's. */
const OWN_MARKS = { red: "circle", yellow: "diamond", green: "triangle", blue: "square", wild: "star" };
/** @type {Object<string, string>} the marks of the deck being drawn, by colour and "wild" (useVariant) */
let MARKS = OWN_MARKS;

/**
 * Remember the catalogue; every drawing function reads kinds and colours from it.
 * @param {import("./types").Catalog} catalog
 */
export function useCatalog(catalog) {
  CATALOG = catalog;
  KINDS.clear();
  COLORS.clear();
  catalog.kinds.forEach((kind, index) => KINDS.set(kind.name, { ...kind, index }));
  catalog.colors.forEach((color, index) => COLORS.set(color.name, { ...color, index }));
}

/**
 * The catalogue (useCatalog gives it before any page is drawn).
 * @returns {import("./types").Catalog}
 */
export function catalog() {
  return /** @type {import("./types").Catalog} */ (CATALOG);
}

/**
 * Draw the cards of a variant from now on with the colour-blind marks of its deck (Classic's
 * printed marks on the single-sided decks, Flip Attack's on the double-sided ones: the
 * catalogue's "marks").
 * @param {string} name the variant
 */
export function useVariant(name) {
  const variant = CATALOG && CATALOG.variants[name];
  MARKS = variant && variant.marks ? variant.marks : OWN_MARKS;
}

/** @param {string} word */
export function isColor(word) {
  return COLORS.has(word);
}

/**
 * The face of a card text on a side (0 light/mild, 1 dark/wild).
 * @param {string} text
 * @param {number} side
 * @returns {string}
 */
export function faceOf(text, side) {
  const faces = text.split("/");
  return faces.length === 2 ? faces[side] : faces[0];
}

/**
 * {color, kind} of a face text; color is null for a wild.
 * @param {string} face
 * @returns {{color: string | null, kind: string}}
 */
export function parseFace(face) {
  const words = face.trim().split(/\s+/);
  if (words.length === 2 && COLORS.has(words[0])) return { color: words[0], kind: words[1] };
  return { color: null, kind: words[words.length - 1] };
}

/** @param {string} kind */
export function kindInfo(kind) {
  return KINDS.get(kind) || { name: kind, wild: false, index: 999 };
}

/**
 * The colour-blind symbol of a colour (a wild's: null) in the deck being drawn.
 * @param {string | null} color
 * @returns {string}
 */
export function symbolOf(color) {
  return MARKS[color || "wild"] || (COLORS.get(color ?? "") || {}).symbol || "circle";
}

/** A colour's name standing alone, on a chip or a button ("Red", «Красный»), in the reader's
 * language: the colour word with a capital (a card's title agrees with the card instead:
 * «Красная 5»).
 * @param {string | null} color
 * @returns {string}
 */
export function colorTitle(color) {
  const name = colorName(color);
  return color ? name.charAt(0).toLocaleUpperCase(lang()) + name.slice(1) : name;
}

/**
 * A card kind's printed name ("Wild Draw Four").
 * @param {string} kind
 */
export function kindTitle(kind) {
  return t(`card.${kind}`);
}

/**
 * "Red 5", "Wild Draw Color": the name printed on the card, in the reader's language.
 * @param {string} face
 * @returns {string}
 */
export function faceTitle(face) {
  return cardTitle(face);
}

/**
 * A colour said with its colour-blind symbol: "red (circle)".
 * @param {string | null} color
 * @returns {string}
 */
export function colorWords(color) {
  return color ? t("color.with_symbol", { color: colorName(color), symbol: t(`symbol.${symbolOf(color)}`) }) : colorName(null);
}

/**
 * The symbol as a text glyph, for buttons and chips.
 * @param {string | null} color
 * @returns {string}
 */
export function symbolGlyph(color) {
  /** @type {Record<string, string>} */
  const glyphs = { circle: "●", diamond: "◆", triangle: "▲", square: "■", star: "★", four: "❖" };
  return glyphs[symbolOf(color)] || "";
}

/**
 * Sort key of a face on a side: colours in the side's order, wilds last, then the kind.
 * @param {string} face
 * @param {string[]} sideColors
 */
export function faceOrder(face, sideColors) {
  const { color, kind } = parseFace(face);
  const c = color === null ? 99 : sideColors.indexOf(color) >= 0 ? sideColors.indexOf(color) : 50;
  return c * 1000 + kindInfo(kind).index;
}

/**
 * Sort key by value first (numbers, then actions, then wilds), colour second.
 * @param {string} face
 * @param {string[]} sideColors
 */
export function faceValueOrder(face, sideColors) {
  const { color, kind } = parseFace(face);
  const c = color === null ? 99 : Math.max(0, sideColors.indexOf(color));
  return kindInfo(kind).index * 100 + c;
}

/**
 * An SVG element.
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {string | null} [text]
 * @returns {SVGElement}
 */
function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

/**
 * The colour-blind symbol as an SVG shape centred at (x, y) with radius r.
 * @param {string} symbol
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} cls
 * @returns {SVGElement}
 */
export function symbolShape(symbol, x, y, r, cls) {
  if (symbol === "circle") return el("circle", { cx: x, cy: y, r, class: cls });
  if (symbol === "square") return el("rect",
    { x: x - r * 0.82, y: y - r * 0.82, width: r * 1.64, height: r * 1.64, rx: r * 0.12, class: cls });
  if (symbol === "diamond") return el("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, class: cls });
  if (symbol === "triangle") return el("polygon",
    { points: `${x},${y - r} ${x + r * 1.05},${y + r * 0.8} ${x - r * 1.05},${y + r * 0.8}`, class: cls });
  if (symbol === "four") return fourMarks(x, y, r, cls);
  return el("polygon", { points: star(x, y, r, 5, 0.45), class: cls });
}

/**
 * The four marks of Classic's colours in one (circle, star, triangle, square, as its wild
 * cards carry no one colour's mark), in a square of radius r.
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} cls
 * @returns {SVGElement}
 */
function fourMarks(x, y, r, cls) {
  const g = el("g", { class: cls });
  const d = r * 0.52;
  ["circle", "star", "triangle", "square"].forEach((shape, i) => {
    g.append(symbolShape(shape, x + (i % 2 ? d : -d), y + (i < 2 ? -d : d), r * 0.5, cls));
  });
  return g;
}

/**
 * The points of a star centred at (x, y) with radius r (inner: the inner radius's share).
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {number} [spikes]
 * @param {number} [inner]
 */
function star(x, y, r, spikes = 5, inner = 0.45) {
  const points = [];
  for (let i = 0; i < spikes * 2; i++) {
    const radius = i % 2 ? r * inner : r;
    const angle = (Math.PI / spikes) * i - Math.PI / 2;
    points.push(`${(x + radius * Math.cos(angle)).toFixed(2)},${(y + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

/** The four symbols of a side in their colours, as a 2x2 tile centred at (x, y): the mark of a
 * wild card, and of unokit itself.
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string[]} colors
 * @param {Record<string, string> | null} [marks]
 */
function fourSymbols(x, y, size, colors, marks = null) {
  const g = el("g", { class: "four" });
  const step = size / 2;
  colors.slice(0, 4).forEach((color, i) => {
    const cx = x + (i % 2 ? step / 2 : -step / 2);
    const cy = y + (i < 2 ? -step / 2 : step / 2);
    g.append(symbolShape(marks ? marks[color] : symbolOf(color), cx, cy, step * 0.42, `sym c-${color}`));
  });
  return g;
}

// ------------------------------------------------------------------ icons
// Each icon is drawn in a unit box (-1..1) and placed with a transform; strokes use "ink".

const STROKE = { fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" };

/**
 * @param {string} d
 * @param {Record<string, string | number>} [extra]
 */
function path(d, extra = {}) {
  return el("path", { d, ...STROKE, "stroke-width": 0.17, ...extra });
}

/** @type {Record<string, () => SVGElement[]>} */
const ICONS = {
  skip: () => [el("circle", { cx: 0, cy: 0, r: 0.72, ...STROKE, "stroke-width": 0.2 }),
    path("M -0.5 0.5 L 0.5 -0.5", { "stroke-width": 0.2 })],
  skip_everyone: () => [
    el("circle", { cx: -0.3, cy: -0.18, r: 0.52, ...STROKE, "stroke-width": 0.15 }),
    path("M -0.66 0.18 L 0.06 -0.54", { "stroke-width": 0.15 }),
    el("circle", { cx: 0.32, cy: 0.3, r: 0.52, ...STROKE, "stroke-width": 0.15 }),
    path("M -0.04 0.66 L 0.68 -0.06", { "stroke-width": 0.15 }),
  ],
  reverse: () => [
    path("M -0.72 0.05 A 0.72 0.72 0 0 1 0.52 -0.5"),
    path("M 0.2 -0.66 L 0.56 -0.5 L 0.5 -0.12"),
    path("M 0.72 -0.05 A 0.72 0.72 0 0 1 -0.52 0.5"),
    path("M -0.2 0.66 L -0.56 0.5 L -0.5 0.12"),
  ],
  trade_hands: () => [
    path("M -0.75 -0.3 L 0.7 -0.3"),
    path("M 0.4 -0.6 L 0.72 -0.3 L 0.4 0"),
    path("M 0.75 0.35 L -0.7 0.35"),
    path("M -0.4 0.05 L -0.72 0.35 L -0.4 0.65"),
  ],
  flip: () => [
    el("rect", { x: -0.7, y: -0.45, width: 0.72, height: 1.05, rx: 0.1, ...STROKE, "stroke-width": 0.13 }),
    el("rect", { x: -0.05, y: -0.3, width: 0.72, height: 1.05, rx: 0.1, class: "ink-fill" }),
    path("M -0.5 -0.62 Q 0 -1.05 0.45 -0.55", { "stroke-width": 0.13 }),
    path("M 0.18 -0.6 L 0.46 -0.52 L 0.5 -0.82", { "stroke-width": 0.13 }),
  ],
  discard_all: () => [
    el("rect", { x: -0.72, y: -0.72, width: 0.62, height: 0.9, rx: 0.08, ...STROKE, "stroke-width": 0.12 }),
    el("rect", { x: -0.42, y: -0.55, width: 0.62, height: 0.9, rx: 0.08, ...STROKE, "stroke-width": 0.12 }),
    el("rect", { x: -0.12, y: -0.38, width: 0.62, height: 0.9, rx: 0.08, class: "ink-fill" }),
    path("M 0.62 -0.1 L 0.62 0.72 M 0.4 0.5 L 0.62 0.74 L 0.84 0.5", { "stroke-width": 0.13 }),
  ],
  launcher: () => [
    // The launcher: a machine with its button on top, firing cards out of its mouth.
    el("rect", { x: -0.8, y: -0.05, width: 1.1, height: 0.85, rx: 0.12, class: "ink-fill" }),
    el("rect", { x: -0.45, y: -0.32, width: 0.4, height: 0.22, rx: 0.06, class: "ink-fill" }),
    el("rect", { x: 0.38, y: -0.72, width: 0.38, height: 0.52, rx: 0.05, transform: "rotate(28 0.57 -0.46)", ...STROKE,
      "stroke-width": 0.1 }),
    el("rect", { x: 0.18, y: -0.2, width: 0.38, height: 0.52, rx: 0.05, transform: "rotate(14 0.37 0.06)", ...STROKE,
      "stroke-width": 0.1 }),
    path("M 0.62 0.34 L 0.92 0.34 M 0.6 0.56 L 0.86 0.66", { "stroke-width": 0.09 }),
  ],
  crowd: () => [
    // Everyone: three heads and shoulders.
    el("circle", { cx: -0.55, cy: -0.22, r: 0.2, class: "ink-fill" }),
    el("circle", { cx: 0, cy: -0.38, r: 0.22, class: "ink-fill" }),
    el("circle", { cx: 0.55, cy: -0.22, r: 0.2, class: "ink-fill" }),
    path("M -0.88 0.42 Q -0.55 0 -0.22 0.42 M -0.34 0.3 Q 0 -0.14 0.34 0.3 M 0.22 0.42 Q 0.55 0 0.88 0.42", { "stroke-width": 0.15 }),
  ],
  burst: () => [el("polygon", { points: star(0, 0, 0.85, 8, 0.5), class: "ink-fill" })],
  shield: () => [path("M 0 -0.8 L 0.7 -0.5 L 0.55 0.3 Q 0.3 0.7 0 0.85 Q -0.3 0.7 -0.55 0.3 L -0.7 -0.5 Z", { "stroke-width": 0.14 }),
    path("M -0.3 0 L 0 0.3 L 0.35 -0.3", { "stroke-width": 0.14 })],
  spikes: () => [el("polygon", { points: "-0.8,-0.6 -0.4,-0.2 0,-0.8 0.4,-0.2 0.8,-0.6 0.5,0.7 -0.5,0.7", class: "ink-fill" })],
  star: () => [el("polygon", { points: star(0, 0, 0.85, 5, 0.45), class: "ink-fill" })],
  mask: () => [path("M -0.85 -0.2 Q 0 -0.6 0.85 -0.2 Q 0.8 0.45 0.3 0.45 Q 0 0.1 -0.3 0.45 Q -0.8 0.45 -0.85 -0.2 Z",
      { "stroke-width": 0.13 }),
    el("circle", { cx: -0.38, cy: 0, r: 0.13, class: "ink-fill" }), el("circle", { cx: 0.38, cy: 0, r: 0.13, class: "ink-fill" })],
  bolt: () => [el("polygon", { points: "0.15,-0.9 -0.55,0.1 -0.05,0.1 -0.2,0.9 0.55,-0.15 0.05,-0.15", class: "ink-fill" })],
  waffle: () => [
    el("circle", { cx: 0, cy: 0, r: 0.78, ...STROKE, "stroke-width": 0.13 }),
    path("M -0.28 -0.72 L -0.28 0.72 M 0.28 -0.72 L 0.28 0.72 M -0.72 -0.28 L 0.72 -0.28 M -0.72 0.28 L 0.72 0.28",
      { "stroke-width": 0.1 }),
  ],
};

/** What goes in the middle of a face: {text} (a number, "+2"), {icon} or both (icon above
 * text), as people read it at a glance; `label` is the catalogue key of the short name printed
 * under it where the icon alone does not say what the card does.
 * @type {Record<string, FaceMark>}
 */
const FACE_MARKS = {
  draw_two: { text: "+2" },
  draw_one: { text: "+1" },
  draw_five: { text: "+5" },
  skip: { icon: "skip" },
  skip_everyone: { icon: "skip_everyone", label: N_("card.skip_everyone.face") },
  reverse: { icon: "reverse" },
  flip: { icon: "flip" },
  trade_hands: { icon: "trade_hands", label: N_("card.trade_hands.face") },
  discard_all: { icon: "discard_all", label: N_("card.discard_all.face") },
  hit_2: { icon: "launcher", label: N_("card.hit_2.face") },
  hit_2x: { icon: "launcher", label: N_("card.hit_2x.face") },
  hit_5x: { icon: "launcher", label: N_("card.hit_5x.face") },
  wild: {},
  wild_draw_four: { text: "+4" },
  wild_draw_two: { text: "+2" },
  wild_draw_color: { text: "+?" },
  wild_all_hit: { icon: "crowd", label: N_("card.wild_all_hit.face") },
  wild_hit_fire: { icon: "burst", label: N_("card.wild_hit_fire.face") },
  wild_press_your_luck: { icon: "launcher", text: "?", label: N_("card.wild_press_your_luck.face") },
  wild_all_out_attack: { icon: "launcher", text: "!", label: N_("card.wild_all_out_attack.face") },
  wild_discard_all: { icon: "discard_all", label: N_("card.wild_discard_all.face") },
  wild_super_hero: { icon: "star", label: N_("card.wild_super_hero.face") },
  wild_villain: { icon: "mask", label: N_("card.wild_villain.face") },
  wild_jim_hopper: { icon: "bolt", label: N_("card.wild_jim_hopper.face") },
  wild_elevens_waffle: { icon: "waffle", label: N_("card.wild_elevens_waffle.face") },
  wild_optimus_prime: { icon: "shield", label: N_("card.wild_optimus_prime.face") },
  wild_megatron: { icon: "spikes", label: N_("card.wild_megatron.face") },
};

/** @typedef {{text?: string, icon?: string, label?: string}} FaceMark what goes in the middle of a face */

/**
 * The mark of a kind: numbers are their digit.
 * @param {string} kind
 * @returns {FaceMark}
 */
export function faceMark(kind) {
  if (/^\d+$/.test(kind)) return { text: kind };
  return FACE_MARKS[kind] || { text: t(`card.${kind}.short`) };
}

/** The kinds that have a mark of their own (a test checks every kind of the catalogue has one). */
export const MARKED_KINDS = Object.keys(FACE_MARKS);

/**
 * @param {string} name
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} ink
 */
function icon(name, x, y, size, ink) {
  const g = el("g", { transform: `translate(${x} ${y}) scale(${size / 2})`, class: `icon ink-${ink}` });
  for (const part of ICONS[name]()) g.append(part);
  return g;
}

/**
 * @param {string} text
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} ink
 * @param {boolean} outline
 */
function markText(text, x, y, size, ink, outline) {
  const fontSize = text.length >= 2 ? size * 0.78 : size;
  return el("text", {
    x,
    y: y + fontSize * 0.36,
    "text-anchor": "middle",
    "font-size": fontSize.toFixed(1),
    class: `mark ink-${ink}${outline ? " outline" : ""}`,
  }, text);
}

/**
 * The mark of a kind drawn centred at (x, y) in a box of `size`.
 * @param {string} kind
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} ink
 * @param {boolean} [outline]
 */
function drawMark(kind, x, y, size, ink, outline = false) {
  const mark = faceMark(kind);
  const g = el("g");
  if (mark.icon && mark.text) {
    g.append(icon(mark.icon, x, y - size * 0.28, size * 0.55, ink));
    g.append(markText(mark.text, x, y + size * 0.3, size * 0.55, ink, outline));
  } else if (mark.icon) {
    g.append(icon(mark.icon, x, y, size * 0.85, ink));
  } else if (mark.text) {
    g.append(markText(mark.text, x, y, size, ink, outline));
  }
  return g;
}

/** The largest size of a face's printed words, in the card's units (its 60 by 90). */
const LABEL_SIZE = 8.4;
/** How wide a face's printed words may be, in the card's units: the coloured body (52) less a
 * margin for the letters' outline. */
const LABEL_ROOM = 46;
/** The longest line printed at the largest size, in ems. */
const ONE_LINE = LABEL_ROOM / LABEL_SIZE;

/** How wide a line is in ems of the card's font: a Chinese character (or a full-width sign) is
 * one em, a Latin or Cyrillic letter about 0.7.
 * @param {string} line
 * @returns {number}
 */
export function ems(line) {
  let width = 0;
  for (const ch of line) width += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 1 : 0.7;
  return width;
}

/** @type {SVGTextElement | null} a hidden line of a face's printed words, to measure with */
let ruler = null;
/** @type {Map<string, number>} lines measured, by language and text */
const measured = new Map();

/**
 * How wide a line of a face's printed words is, in ems, as the page prints it (the card's font,
 * bold, in upper case in the page's language, a little apart): measured once on a hidden line
 * drawn with the same style, or estimated (ems()) where nothing can be measured yet.
 * @param {string} line
 * @returns {number}
 */
export function labelEms(line) {
  const key = `${lang()}\u0000${line}`;
  const known = measured.get(key);
  if (known !== undefined) return known;
  if (!ruler || !ruler.isConnected) {
    const svg = el("svg", { class: "card-svg label-ruler", "aria-hidden": "true", width: "0", height: "0" });
    const g = el("g", { class: "face-label" });
    ruler = /** @type {SVGTextElement} an SVG text */ (el("text", { x: 0, y: 0, "font-size": "100" }));
    g.append(ruler);
    svg.append(g);
    document.body.append(svg);
  }
  ruler.textContent = line;
  const width = ruler.getComputedTextLength() / 100;
  if (!(width > 0)) return ems(line); // not drawn (no layout yet): an estimate, not remembered
  measured.set(key, width);
  return width;
}

/**
 * A short name in at most two lines: on one when it is short, else split where the longer line
 * is shortest (widths measured by labelEms()).
 * @param {string} text the words
 * @param {(line: string) => number} [width] a line's width in ems
 * @returns {string[]}
 */
export function labelLines(text, width = labelEms) {
  const trimmed = text.trim();
  // Words apart by spaces; Chinese, which has none, may break between any two characters.
  const spaced = /\s/.test(trimmed) || !/[\u2e80-\u9fff]/.test(trimmed);
  const words = spaced ? trimmed.split(/\s+/) : [...trimmed];
  const glue = spaced ? " " : "";
  let best = [words.join(glue)];
  let longest = width(best[0]);
  if (longest <= ONE_LINE) return best;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(glue), words.slice(i).join(glue)];
    const length = Math.max(...lines.map(width));
    if (length < longest) {
      best = lines;
      longest = length;
    }
  }
  return best;
}

/**
 * The short name a face prints under its icon (its `label` key, in the reader's language),
 * centred at (30, y) in one or two lines, as large as fits the card's coloured body (a long
 * word, «ИСПЫТАЙ», smaller).
 * @param {string} key the catalogue key of the name
 * @param {number} y the middle of the label
 * @param {string} ink "light" or "dark"
 * @returns {SVGElement}
 */
function faceLabel(key, y, ink) {
  const lines = labelLines(t(key));
  const size = Math.min(LABEL_SIZE, LABEL_ROOM / Math.max(...lines.map(labelEms)));
  const g = el("g", { class: `face-label ink-${ink}` });
  lines.forEach((line, i) => {
    const at = y + (i - (lines.length - 1) / 2) * size * 1.1 + size * 0.36;
    g.append(el("text", { x: 30, y: at.toFixed(1), "text-anchor": "middle", "font-size": size.toFixed(1) }, line));
  });
  return g;
}

/**
 * The ink of a colour's body: dark on the light colours, white elsewhere (WCAG AA).
 * @param {string} color
 */
function inkOf(color) {
  return color === "yellow" || color === "orange" ? "dark" : "light";
}

/**
 * An SVG card. face: a face text, or null for the back of a single-sided deck.
 * side: 0 light/mild, 1 dark/wild (frames differ). sideColors: the colours of that side
 * (a wild shows their symbols).
 * @param {string | null} face
 * @param {number} [side]
 * @param {string[]} [sideColors]
 * @returns {SVGElement}
 */
export function cardSvg(face, side = 0, sideColors = ["red", "yellow", "green", "blue"]) {
  const svg = el("svg", { viewBox: "0 0 60 90", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  if (face === null) {
    svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 7, class: "back-frame" }));
    svg.append(el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, class: "back-body" }));
    for (let i = -3; i < 6; i++) svg.append(el("path", { d: `M ${4 + i * 12} 86 L ${i * 12 + 56} 4`, class: "back-line" }));
    svg.append(el("rect", { x: 15, y: 30, width: 30, height: 30, rx: 6, class: "back-tile" }));
    svg.append(fourSymbols(30, 45, 24, ["red", "yellow", "green", "blue"], OWN_MARKS));
    return svg;
  }
  const { color, kind } = parseFace(face);
  const dark = side === 1;
  const ink = color ? inkOf(color) : "light";
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 7, class: dark ? "frame dark" : "frame light" }));
  svg.append(el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, class: `body c-${color || "multi"}` }));
  const mark = faceMark(kind);
  if (mark.label) {
    // The icon higher and smaller, the short name under it where the lower corner would be.
    if (color) {
      svg.append(symbolShape(symbolOf(color), 30, 38, 16, `emblem ink-${ink}`));
      svg.append(drawMark(kind, 30, 38, 25, ink, true));
    } else {
      svg.append(fourSymbols(30, 22, 14, sideColors));
      svg.append(drawMark(kind, 30, 45, 22, "light", true));
    }
    svg.append(faceLabel(mark.label, 70, ink));
  } else if (color) {
    svg.append(symbolShape(symbolOf(color), 30, 47, 19, `emblem ink-${ink}`));
    svg.append(drawMark(kind, 30, 47, 30, ink, true));
  } else if (!mark.text && !mark.icon) {
    svg.append(fourSymbols(30, 45, 34, sideColors));
  } else {
    svg.append(fourSymbols(30, 31, 20, sideColors));
    svg.append(drawMark(kind, 30, 60, 26, "light", true));
  }
  // The corners: the mark small, and the colour's symbol under it (a wild: a star).
  /** @type {(x: number, y: number, rotate: boolean) => SVGElement} */
  const corner = (x, y, rotate) => {
    const g = el("g", rotate ? { transform: `rotate(180 30 45)` } : {});
    const small = mark.icon && !mark.text ? drawMark(kind, x, y, 12, ink) : drawMark(kind, x, y, mark.icon ? 14 : 13, ink);
    if (!mark.icon && !mark.text) g.append(symbolShape(symbolOf(null), x, y, 5, "corner-star"));
    else g.append(small);
    g.append(symbolShape(symbolOf(color), x, y + 11.5, 3.4, `corner-sym ink-${ink}${color ? "" : " multi"}`));
    return g;
  };
  svg.append(corner(11.5, 13, false));
  if (!mark.label) svg.append(corner(11.5, 13, true));
  return svg;
}

/**
 * unokit's mark: the four symbols in their colours on a dark tile (the icons use it too).
 * @param {string} [cls]
 */
export function logoSvg(cls = "logo") {
  const svg = el("svg", { viewBox: "0 0 40 40", class: cls, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 38, height: 38, rx: 9, class: "logo-tile" }));
  svg.append(fourSymbols(20, 20, 26, ["red", "yellow", "green", "blue"], OWN_MARKS));
  return svg;
}

/**
 * A card as an element with its accessible name (a <div role="img">, or the given tag). The
 * printed name shows on hover (title) and on a long press (see table.js).
 * @param {string | null} face a face text, or null for a back
 * @param {number} side
 * @param {string[]} [sideColors]
 * @param {{tag?: string, extraLabel?: string, small?: boolean}} [more]
 * @returns {HTMLElement}
 */
export function cardNode(face, side, sideColors, { tag = "div", extraLabel = "", small = false } = {}) {
  const node = document.createElement(tag);
  node.className = `card${small ? " small" : ""}${side === 1 ? " dark-side" : ""}`;
  const title = face === null ? t("card.back") : faceTitle(face);
  node.dataset.face = face === null ? "" : face;
  if (tag === "div") node.setAttribute("role", "img");
  node.setAttribute("aria-label", extraLabel ? `${title}, ${extraLabel}` : title);
  node.title = title;
  node.append(cardSvg(face, side, sideColors));
  return node;
}
