// Avatars drawn from a player's name: a face in SVG whose colours, hair, eyes and mouth come from
// a hash of the name, so the same name always gets the same face on every screen. No pictures
// are fetched; nothing here is anyone else's art.

const SVG = "http://www.w3.org/2000/svg";

const BACKGROUNDS = ["#5c6bc0", "#26a69a", "#ef6c00", "#8e24aa", "#3949ab", "#00897b", "#c2185b", "#6d4c41", "#546e7a", "#7cb342"];
const SKINS = ["#f5d0b0", "#e8b48f", "#c98e62", "#a0683f", "#6f4429", "#ffdcc2"];
const HAIRS = ["#2b1d14", "#4a2f1b", "#8d5524", "#d6a54a", "#b33b1e", "#e0e0e0", "#1c1c1c"];

/**
 * FNV-1a over the name's UTF-16 units: a stable 32-bit number.
 * @param {string} name
 * @returns {number}
 */
export function nameHash(name) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * An SVG element.
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function el(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** @type {((color: string) => SVGElement)[]} */
const HAIR_STYLES = [
  (c) => el("path", { d: "M9 19 Q10 7 20 7 Q30 7 31 19 Q27 12 20 12 Q13 12 9 19 Z", fill: c }),
  (c) => el("path", { d: "M8 22 Q7 6 20 6 Q33 6 32 22 L30 22 Q29 12 20 11 Q11 12 10 22 Z", fill: c }),
  (c) => el("path", { d: "M10 16 Q12 6 20 6 Q28 6 30 16 Q25 10 22 13 Q18 9 14 13 Q12 11 10 16 Z", fill: c }),
  (c) => el("path", { d: "M8 30 Q5 8 20 6 Q35 8 32 30 L29 30 Q30 14 20 12 Q10 14 11 30 Z", fill: c }),
  (c) => el("circle", { cx: 20, cy: 6.5, r: 4.5, fill: c }),
  () => el("g", {}),
];

const EYES = [
  () => [el("circle", { cx: 16, cy: 20, r: 1.5, fill: "#1b1b1b" }), el("circle", { cx: 24, cy: 20, r: 1.5, fill: "#1b1b1b" })],
  () => [el("path",
      { d: "M14.2 20.5 Q16 18.6 17.8 20.5", stroke: "#1b1b1b", "stroke-width": 1.3, fill: "none", "stroke-linecap": "round" }),
    el("path", { d: "M22.2 20.5 Q24 18.6 25.8 20.5", stroke: "#1b1b1b", "stroke-width": 1.3, fill: "none", "stroke-linecap": "round" })],
  () => [el("ellipse", { cx: 16, cy: 20, rx: 1.3, ry: 1.9, fill: "#1b1b1b" }),
    el("ellipse", { cx: 24, cy: 20, rx: 1.3, ry: 1.9, fill: "#1b1b1b" })],
  () => [el("rect", { x: 12.5, y: 17.5, width: 7, height: 5, rx: 2, fill: "none", stroke: "#1b1b1b", "stroke-width": 1.1 }),
    el("rect", { x: 20.5, y: 17.5, width: 7, height: 5, rx: 2, fill: "none", stroke: "#1b1b1b", "stroke-width": 1.1 }),
    el("circle", { cx: 16, cy: 20, r: 1.1, fill: "#1b1b1b" }), el("circle", { cx: 24, cy: 20, r: 1.1, fill: "#1b1b1b" })],
];

const MOUTHS = [
  () => el("path", { d: "M16 26 Q20 29.5 24 26", stroke: "#5a2a1a", "stroke-width": 1.4, fill: "none", "stroke-linecap": "round" }),
  () => el("path", { d: "M16.5 25.5 Q20 30 23.5 25.5 Z", fill: "#7a2e22" }),
  () => el("path", { d: "M17 27 L23 27", stroke: "#5a2a1a", "stroke-width": 1.4, "stroke-linecap": "round" }),
  () => el("ellipse", { cx: 20, cy: 27, rx: 2, ry: 1.6, fill: "#7a2e22" }),
];

/**
 * An avatar for `name` as an SVG element (decorative: the name is always written beside it).
 * @param {string} name
 * @param {string} [cls]
 */
export function avatarSvg(name, cls = "avatar") {
  let hash = nameHash(name || "?");
  /** @type {<T>(list: T[]) => T} */
  const pick = (list) => {
    const item = list[hash % list.length];
    hash = Math.floor(hash / list.length) ^ 0x9e37;
    return item;
  };
  const background = pick(BACKGROUNDS);
  const skin = pick(SKINS);
  const hair = pick(HAIRS);
  const style = pick(HAIR_STYLES);
  const eyes = pick(EYES);
  const mouth = pick(MOUTHS);
  const svg = el("svg", { viewBox: "0 0 40 40", class: cls, "aria-hidden": "true", focusable: "false" });
  svg.append(el("circle", { cx: 20, cy: 20, r: 20, fill: background }));
  svg.append(el("path", { d: "M7 40 Q8 30 20 30 Q32 30 33 40 Z", fill: "rgba(0,0,0,0.25)" }));
  svg.append(el("ellipse", { cx: 20, cy: 20, rx: 10.5, ry: 12, fill: skin }));
  svg.append(style(hair));
  for (const part of eyes()) svg.append(part);
  svg.append(mouth());
  return svg;
}
