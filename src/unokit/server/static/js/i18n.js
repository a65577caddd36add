// Every word the page shows, in its reader's language (docs/i18n.md).
//
// The catalogue of a language is /static/i18n/<lang>.json, compiled from the same gettext
// catalogue as the terminal's (make catalogs): messages by key, with {name} placeholders; a
// plural message (a key starting "n.") has one text per CLDR category and picks it with
// Intl.PluralRules by its "count". The server sends what happened as lines: {key, params} with
// plain values (a seat number, a card's text, a colour's name); say() shows each parameter by
// its type (the catalogue's "params" table: a seat by its player's name, a card by its title).
//
// The language: ?lang= in the address (then remembered), else the reader's choice (remembered in localStorage),
// else the first of navigator.languages that unokit speaks, else English. <html lang> follows.

const STORAGE_KEY = "unokit.lang";
const DEFAULT = "en";

let code = DEFAULT;
let messages = {};
let paramTypes = {};
let english = null; // the fallback for a key a catalogue lacks (the tests make sure none does)
let rules = new Intl.PluralRules(DEFAULT);

/** The language being shown. */
export function lang() {
  return code;
}

/** The best language for this reader among `languages` ({code: name}); `extra` codes (the
 * test pseudo-language) are accepted from ?lang= and localStorage but never offered. */
export function pickLanguage(languages, extra = []) {
  const known = new Map([...Object.keys(languages), ...extra].map((c) => [c.toLowerCase(), c]));
  const wanted = [];
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (fromUrl && known.has(fromUrl.toLowerCase())) rememberLanguage(known.get(fromUrl.toLowerCase())); // a link's choice sticks
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved) wanted.push(saved);
  } catch (err) {
    /* storage may be off: follow the browser */
  }
  wanted.push(...(navigator.languages || [navigator.language || DEFAULT]));
  for (const tag of wanted) {
    const lower = String(tag).toLowerCase();
    if (known.has(lower)) return known.get(lower);
    const base = lower.split("-")[0];
    if (known.has(base)) return known.get(base);
  }
  return DEFAULT;
}

async function fetchCatalogue(wanted) {
  const response = await fetch(`/static/i18n/${encodeURIComponent(wanted)}.json`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`no catalogue for ${wanted}`);
  return response.json();
}

/** Load the catalogue of `wanted` (English when it cannot be had) and make it the page's. */
export async function loadLanguage(wanted) {
  let data;
  try {
    data = await fetchCatalogue(wanted);
  } catch (err) {
    data = await fetchCatalogue(DEFAULT);
  }
  code = data.language;
  messages = data.messages;
  paramTypes = data.params || {};
  english = code === DEFAULT ? null : english;
  if (code !== DEFAULT && english === null) {
    try {
      english = (await fetchCatalogue(DEFAULT)).messages;
    } catch (err) {
      english = {};
    }
  }
  try {
    rules = new Intl.PluralRules(code);
  } catch (err) {
    rules = new Intl.PluralRules(DEFAULT);
  }
  document.documentElement.lang = code;
  return code;
}

/** Remember the reader's choice of language (the page then reloads in it). */
export function rememberLanguage(wanted) {
  try {
    localStorage.setItem(STORAGE_KEY, wanted);
  } catch (err) {
    /* storage may be off: the choice lasts for this page only */
  }
}

function template(key, count) {
  let text = messages[key];
  if (text === undefined && english) text = english[key];
  if (text === undefined) return key;
  if (typeof text === "object") {
    const category = rules.select(typeof count === "number" ? count : 1);
    return text[category] ?? text.other ?? Object.values(text)[0];
  }
  return text;
}

/** A share (0 to 1) as a whole percentage, written by the reader's language's rules (CLDR:
 * "61%" in English, "61 %" in German, Russian and Spanish). */
export function percent(share) {
  return new Intl.NumberFormat(code, { style: "percent", maximumFractionDigits: 0 }).format(share);
}

/** A number with at most `digits` decimals, written by the reader's language's rules (a
 * decimal comma in German, Russian and Spanish). */
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(code, { maximumFractionDigits: digits }).format(value);
}

/** Marks a key for extraction where it is chosen before it is said (N_("replay.facts")). */
export function N_(key) {
  return key;
}

/** The message `key` with its {placeholders} filled from `params` (shown as given); a plural
 * message takes its form from params.count. */
export function t(key, params = {}) {
  const text = template(key, params.count);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined || params[name] === null ? whole : String(params[name])));
}

// ---------------------------------------------------------------------- typed parameters

/** A card face ("red 5", "wild_draw_four"; the first face of "red 5/pink 2") by its title. */
export function cardTitle(face) {
  const words = String(face).split("/")[0].trim().split(/\s+/);
  const kind = words[words.length - 1];
  const title = t(`card.${kind}`);
  if (words.length < 2) return t("face.wild", { card: title });
  const color = t(`face.color.${words[0]}`);
  return t(/^\d+$/.test(kind) ? "face.number" : "face.action", { color, card: title });
}

/** A colour by its name; "none yet" while one is being chosen. */
export function colorName(color) {
  return color ? t(`color.${color}`) : t("color.none");
}

function join(items) {
  return items.join(t("list.separator"));
}

/** A parameter of a line shown by its type; `names` are the seats' names. */
export function showValue(kind, value, names) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value) && value.key) return say(value, names);
  if (typeof value === "string" && (kind === "seats" || kind === "cards" || kind === "numbers")) return value; // already said
  switch (kind) {
    case "seat":
      return names && names[value] !== undefined ? names[value] : t("seat.numbered", { number: Number(value) + 1 });
    case "seats":
      return join(value.map((s) => showValue("seat", s, names)));
    case "card":
      return cardTitle(value);
    case "cards":
      return value.length ? join(value.map(cardTitle)) : t("cards.none");
    case "kind":
      return t(`card.${value}`);
    case "color":
      return colorName(value);
    case "side":
      return t(`side.${value}`);
    case "direction":
      return t(`direction.${value}`);
    case "reason":
      return messages[`card.${value}`] !== undefined ? t(`card.${value}`) : t(`reason.${value}`);
    case "decision":
      return t(`decision.${value}.todo`);
    case "option":
      return t(`option.${value}`);
    case "variant":
      return t(`variant.${value}`);
    case "numbers":
      return join(value.map((points, seat) => t("score.entry", { player: showValue("seat", seat, names), points })));
    default:
      return String(value);
  }
}

/**
 * A line from the server ({key, params}) in words; `names` name the seats.
 * @param {import("./types").Line} line
 * @param {string[] | null} [names]
 * @returns {string}
 */
export function say(line, names = null) {
  const shown = {};
  for (const [name, value] of Object.entries(line.params || {})) shown[name] = showValue(paramTypes[name] || "text", value, names);
  const params = line.params || {};
  if (typeof params.count === "number") shown.count = params.count;
  return t(line.key, shown);
}

/** A <select> that switches the page's language (`languages`: {code: name}); `id` names it
 * (the bar's is "language", the table's menu has its own). */
export function languageSwitcher(languages, id = "language") {
  const select = document.createElement("select");
  select.id = id;
  select.setAttribute("aria-label", t("ui.language"));
  for (const [value, name] of Object.entries(languages)) {
    const option = document.createElement("option");
    option.value = value;
    option.lang = value;
    option.textContent = name;
    option.selected = value === code;
    select.append(option);
  }
  select.addEventListener("change", () => {
    rememberLanguage(select.value);
    location.reload();
  });
  return select;
}

/** Put the words into the page's static elements: data-i18n="key" sets the text,
 * data-i18n-label="key" the aria-label. */
export function translateStatic(root = document) {
  root.querySelectorAll(/** @type {"span"} */ ("[data-i18n]")).forEach((node) => {
    node.textContent = t(node.dataset.i18n);
  });
  root.querySelectorAll(/** @type {"span"} */ ("[data-i18n-label]")).forEach((node) => {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  });
  document.title = t("ui.title");
}
