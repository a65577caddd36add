// Cards drawn as SVG: every face of every variant, from the server's catalogue (/api/catalog).
// A face is text in the engine's notation: "red 5", "teal skip_everyone", "wild_draw_color".
// A double-sided card is "light face/dark face"; faceOf() picks the side in play. The words on
// and about a card (its title, its short label) come from the reader's catalogue (i18n.js).

import { cardTitle, colorName, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

let CATALOG = null;
const KINDS = new Map();
const COLORS = new Map();

/** Remember the catalogue; every drawing function reads kinds and colours from it. */
export function useCatalog(catalog) {
  CATALOG = catalog;
  KINDS.clear();
  COLORS.clear();
  catalog.kinds.forEach((kind, index) => KINDS.set(kind.name, { ...kind, index }));
  catalog.colors.forEach((color, index) => COLORS.set(color.name, { ...color, index }));
}

export function catalog() {
  return CATALOG;
}

export function isColor(word) {
  return COLORS.has(word);
}

/** The face of a card text on a side (0 light/mild, 1 dark/wild). */
export function faceOf(text, side) {
  const faces = text.split("/");
  return faces.length === 2 ? faces[side] : faces[0];
}

/** {color, kind} of a face text; color is null for a wild. */
export function parseFace(face) {
  const words = face.trim().split(/\s+/);
  if (words.length === 2 && COLORS.has(words[0])) return { color: words[0], kind: words[1] };
  return { color: null, kind: words[words.length - 1] };
}

export function kindInfo(kind) {
  return KINDS.get(kind) || { name: kind, wild: false, index: 999 };
}

/** The short label of a kind for tight spaces ("+2"), in the reader's language. */
export function kindShort(kind) {
  return t(`card.${kind}.short`);
}

export function symbolOf(color) {
  return color ? (COLORS.get(color) || {}).symbol || "circle" : "wild";
}

/** "Red 5", "Wild Draw Color": the title people read, in their language. */
export function faceTitle(face) {
  return cardTitle(face);
}

/** A colour said with its colour-blind symbol: "red (circle)". */
export function colorWords(color) {
  return color ? t("color.with_symbol", { color: colorName(color), symbol: t(`symbol.${symbolOf(color)}`) }) : colorName(null);
}

/** Sort key of a face on a side: colours in the side's order, wilds last, then the kind. */
export function faceOrder(face, sideColors) {
  const { color, kind } = parseFace(face);
  const c = color === null ? 99 : sideColors.indexOf(color) >= 0 ? sideColors.indexOf(color) : 50;
  return c * 1000 + kindInfo(kind).index;
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** The colour-blind symbol as an SVG shape centred at (x, y) with radius r. */
function symbolShape(symbol, x, y, r, cls) {
  if (symbol === "circle") return el("circle", { cx: x, cy: y, r, class: cls });
  if (symbol === "square") return el("rect", { x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7, class: cls });
  if (symbol === "diamond") {
    return el("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, class: cls });
  }
  if (symbol === "triangle") {
    return el("polygon", { points: `${x},${y - r} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}`, class: cls });
  }
  return el("polygon", { points: star(x, y, r), class: cls });
}

function star(x, y, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function centreText(kind) {
  if (/^\d+$/.test(kind)) return kind;
  return kindShort(kind);
}

/**
 * An SVG card. face: a face text, or null for the back of a single-sided deck.
 * side: 0 light/mild, 1 dark/wild (frames differ). sideColors: the colours of that side
 * (a wild's oval shows them).
 */
export function cardSvg(face, side = 0, sideColors = ["red", "yellow", "green", "blue"]) {
  const svg = el("svg", { viewBox: "0 0 60 90", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  if (face === null) {
    svg.append(el("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, class: "back-frame" }));
    svg.append(el("ellipse", { cx: 30, cy: 45, rx: 19, ry: 30, transform: "rotate(25 30 45)", class: "back-oval" }));
    svg.append(el("text", { x: 30, y: 50, class: "back-text", "text-anchor": "middle" }, "UNO"));
    return svg;
  }
  const { color, kind } = parseFace(face);
  const dark = side === 1;
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, class: dark ? "frame dark" : "frame light" }));
  svg.append(el("rect", { x: 5, y: 5, width: 50, height: 80, rx: 4, class: `body c-${color || "multi"}` }));
  if (color === null) {
    // A wild: the side's four colours in the oval.
    const quarters = [[0, -1], [1, 0], [0, 1], [-1, 0]];
    sideColors.slice(0, 4).forEach((c, i) => {
      const [dx, dy] = quarters[i];
      svg.append(el("circle", { cx: 30 + dx * 8, cy: 45 + dy * 11, r: 9, class: `body c-${c}` }));
    });
  }
  svg.append(el("ellipse", { cx: 30, cy: 45, rx: 17, ry: 27, transform: "rotate(25 30 45)", class: dark ? "oval dark" : "oval light" }));
  const label = centreText(kind);
  const size = label.length <= 2 ? 24 : label.length <= 3 ? 17 : 12;
  svg.append(el("text", { x: 30, y: 45 + size * 0.36, "text-anchor": "middle", "font-size": size, class: dark ? "label dark" : "label light" }, label));
  const symbol = symbolOf(color);
  svg.append(symbolShape(symbol, 13, 14, 5.5, `corner ${color ? `c-${color}` : "c-multi"}`));
  svg.append(symbolShape(symbol, 47, 76, 5.5, `corner ${color ? `c-${color}` : "c-multi"}`));
  const small = label.length <= 3 ? label : kindShort(kind).slice(0, 3);
  svg.append(el("text", { x: 47, y: 19, "text-anchor": "middle", "font-size": 9, class: `pip ink-${color || "multi"}` }, small));
  return svg;
}

/** A card as an element with its accessible name (a <div role="img">, or the given tag). */
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
