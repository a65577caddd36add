// Small DOM helpers shared by every page.

/**
 * h("button#id.primary", {onclick, "aria-label": ...}, "text", child, ...)
 * @template {string} S
 * @param {S} spec the tag, then #id and .classes
 * @param {Record<string, any> | null} [attrs] attributes; on* are listeners, `dataset` and `text` set those
 * @param {...any} children nodes, or anything else as its text (null, undefined and false are left out)
 * @returns {import("./types").ElementOf<S>}
 */
export function h(spec, attrs = {}, ...children) {
  const tag = (spec.match(/^[a-z0-9]*/i) || [""])[0];
  const id = (spec.match(/#([\w-]+)/) || [])[1];
  const classes = [...spec.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
  const node = document.createElement(tag || "div");
  if (id) node.id = id;
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return /** @type {import("./types").ElementOf<S>} */ (node);
}

/**
 * Empty a node of its children.
 * @template {Node} N
 * @param {N} node
 * @returns {N} the node
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Play a short CSS animation class on a node unless the reader asked for reduced motion.
 * @param {Element | null | undefined} node
 * @param {string} cls
 */
export function animate(node, cls) {
  if (!node || reducedMotion()) return;
  node.classList.remove(cls);
  void (/** @type {HTMLElement} */ (node)).offsetWidth; // a reflow, so that the class plays again
  node.classList.add(cls);
  node.addEventListener("animationend", () => node.classList.remove(cls), { once: true });
}

/** A name as short as a seat's label allows: long names end with "…" (the whole name stays in
 * the element's accessible name and tooltip).
 * @param {string | null | undefined} name
 * @param {number} [max] how many characters at most
 * @returns {string}
 */
export function shortName(name, max = 14) {
  const chars = [...String(name)];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * Say `text` under the field `input` as its error, read with it (aria-describedby, aria-invalid,
 * and said at once: role alert), put the focus on the field and scroll the field and its error
 * into view: the reader sees what is wrong where it is to be put right (a form's own message may
 * lie a screen away from the field). The error goes once the field is changed.
 * @param {HTMLInputElement} input a field with an id
 * @param {string} text
 */
export function fieldError(input, text) {
  const id = `${input.id}-error`;
  let note = document.getElementById(id);
  if (!note) {
    note = h(`p.error.field-error#${id}`, { role: "alert" });
    input.after(note);
  }
  note.textContent = text;
  const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== id);
  input.setAttribute("aria-describedby", [...described, id].join(" "));
  input.setAttribute("aria-invalid", "true");
  input.focus({ preventScroll: true });
  (input.closest(".field") || note).scrollIntoView({ block: "nearest" });
  const shown = note;
  input.addEventListener("input", () => {
    shown.remove();
    input.removeAttribute("aria-invalid");
    if (described.length) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
  }, { once: true });
}
