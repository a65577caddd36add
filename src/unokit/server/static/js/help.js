// Help in the page: the rules being played (the variant in short, from the engine in the reader's
// language, POST /api/rules with its lang, and the house rules that are on), the legend of every
// card of the variant, and the keys (the key map the terminal game shares, GET /api/catalog "keys").

import { cardNode, colorTitle, kindTitle, symbolGlyph, symbolOf, useVariant } from "./cards.js";
import { clear, h } from "./dom.js";
import { api } from "./net.js";
import { rulesOn } from "./options.js";
import { SEAT_MARKS, seatMark } from "./table.js";
import { N_, lang, t } from "./i18n.js";
import { effectiveBindings, keySettingsBox } from "./shortcuts.js";

/** @type {HTMLDialogElement | null} made the first time the help opens */
let dialog = null;

/** What each card kind does, in a line (the legend). */
/** @type {Record<string, string>} */
const LEGEND = {
  skip: N_("legend.skip"),
  reverse: N_("legend.reverse"),
  draw_two: N_("legend.draw_two"),
  draw_one: N_("legend.draw_one"),
  draw_five: N_("legend.draw_five"),
  skip_everyone: N_("legend.skip_everyone"),
  flip: N_("legend.flip"),
  hit_2: N_("legend.hit_2"),
  hit_2x: N_("legend.hit_2x"),
  hit_5x: N_("legend.hit_5x"),
  discard_all: N_("legend.discard_all"),
  trade_hands: N_("legend.trade_hands"),
  wild: N_("legend.wild"),
  wild_draw_four: N_("legend.wild_draw_four"),
  wild_draw_two: N_("legend.wild_draw_two"),
  wild_draw_color: N_("legend.wild_draw_color"),
  wild_all_hit: N_("legend.wild_all_hit"),
  wild_hit_fire: N_("legend.wild_hit_fire"),
  wild_press_your_luck: N_("legend.wild_press_your_luck"),
  wild_all_out_attack: N_("legend.wild_all_out_attack"),
  wild_discard_all: N_("legend.wild_discard_all"),
  wild_super_hero: N_("legend.wild_super_hero"),
  wild_villain: N_("legend.wild_villain"),
  wild_jim_hopper: N_("legend.wild_jim_hopper"),
  wild_elevens_waffle: N_("legend.wild_elevens_waffle"),
  wild_optimus_prime: N_("legend.wild_optimus_prime"),
  wild_megatron: N_("legend.wild_megatron"),
};

/**
 * A section of the help, with its heading.
 * @param {string} id
 * @param {string} title
 * @param {...(Node | string | null)} content
 */
function section(id, title, ...content) {
  return h("section.help-section", { id, "aria-labelledby": `${id}-title` }, h("h3", { id: `${id}-title` }, title), ...content);
}

/**
 * The legend: every card kind of the variant's sides, drawn, with its name and what it does.
 * @param {import("./types").Catalog} catalog
 * @param {string} variantName
 */
export function legend(catalog, variantName) {
  const variant = catalog.variants[variantName];
  useVariant(variantName);
  const box = h("div.legend");
  variant.kinds.forEach((kinds, side) => {
    const colors = variant.side_colors[side];
    const list = h("ul.legend-list");
    const numbers = kinds.filter((k) => /^\d+$/.test(k));
    if (numbers.length) {
      list.append(h("li", {}, cardNode(`${colors[0]} ${numbers[numbers.length - 1]}`, side, colors, { small: true }),
        h("span", {}, h("strong", {}, t("legend.numbers", { low: numbers[0], high: numbers[numbers.length - 1] })),
          h("span.hint", {}, t("legend.number")))));
    }
    for (const kind of kinds.filter((k) => !/^\d+$/.test(k))) {
      const wild = /** @type {{wild: boolean}} every kind is in the catalogue */ (catalog.kinds.find((k) => k.name === kind)).wild;
      const face = wild ? kind : `${colors[side === 0 ? 1 : 2]} ${kind}`;
      list.append(h("li", { dataset: { kind } }, cardNode(face, side, colors, { small: true }),
        h("span", {}, h("strong", {}, kindTitle(kind)), h("span.hint", {}, LEGEND[kind] ? t(LEGEND[kind]) : ""))));
    }
    if (variant.double_sided) box.append(h("h4", {}, t("legend.side", { side: t(`side.${variant.side_names[side]}`) })));
    box.append(list);
  });
  const symbols = h("ul.symbol-list");
  const played = new Set(variant.side_colors.flat());
  for (const color of catalog.colors.filter((c) => played.has(c.name))) {
    const words = t("legend.symbol", { color: colorTitle(color.name), symbol: t(`symbol.${symbolOf(color.name)}`) });
    symbols.append(h("li", {}, h(`span.swatch.c-${color.name}`, { "aria-hidden": "true" }), `${symbolGlyph(color.name)} ${words}`));
  }
  const wild = t("legend.symbol", { color: kindTitle("wild"), symbol: t(`symbol.${symbolOf(null)}`) });
  symbols.append(h("li.wild-mark", {}, h("span.swatch.c-multi", { "aria-hidden": "true" }), `${symbolGlyph(null)} ${wild}`));
  box.append(h("h4", {}, t("legend.symbols")), h("p.hint", {}, t("legend.symbols_text")), symbols);
  box.append(h("h4", {}, t("legend.table")), tableLegend());
  return box;
}

/** What each of the table's SEAT_MARKS says. */
/** @type {Record<string, string>} */
const MARK_WORDS = {
  host: N_("legend.mark_host"),
  dealer: N_("legend.mark_dealer"),
  uno: N_("legend.mark_uno"),
  no_uno: N_("legend.mark_no_uno"),
};

/** The marks on the seats around the table, drawn as the table draws them. */
function tableLegend() {
  /** @type {[HTMLElement, string][]} */
  const marks = [[h("span.count", {}, "7"), t("legend.mark_count")],
    ...SEAT_MARKS.map((kind) => /** @type {[HTMLElement, string]} */ ([seatMark(kind), t(MARK_WORDS[kind])]))];
  return h("ul.mark-list", {},
    marks.map(([mark, words]) => h("li", {}, h("span.mark", { "aria-hidden": "true" }, mark), h("span", {}, words))));
}

/**
 * Open the help for a room (its variant, rules and options).
 * @param {import("./types").Catalog} catalog
 * @param {{variant: string, players: number, options: Record<string, unknown>}} room
 */
export async function openHelp(catalog, room) {
  if (!dialog) {
    const made = h("dialog.help#help", { "aria-labelledby": "help-title" });
    document.body.append(made);
    made.addEventListener("click", (event) => { if (event.target === made) made.close(); });
    dialog = made;
  }
  const shown = dialog;
  const variant = catalog.variants[room.variant];
  const rulesText = h("div.rules-text", {}, h("p.hint", {}, t("help.loading")));
  const on = rulesOn(catalog, room);
  const house = variant.options.filter((o) => o.house_rule && room.options[o.name] && room.options[o.name] !== "false");
  const keys = h("table.keys", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("help.key")), h("th", { scope: "col" }, t("help.does")))));
  const body = h("tbody");
  for (const binding of effectiveBindings(catalog.keys).filter((b) => b.where !== "terminal")) {
    body.append(h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, binding.shown)), h("td", {}, t(`keys.${binding.command}`))));
  }
  keys.append(body);
  const nav = h("nav.help-nav", { "aria-label": t("help.sections") },
    h("a", { href: "#help-rules" }, t("help.rules")), h("a", { href: "#help-cards" }, t("help.cards")),
      h("a", { href: "#help-keys" }, t("help.keys")));
  clear(shown).append(
    h("div.help-head", {}, h("h2#help-title", {}, t("help.title", { variant: t(`variant.${room.variant}`) })),
      h("button.close-help", { type: "button", "aria-label": t("table.close"), onclick: () => shown.close() }, "✕")),
    nav,
    h("div.help-body", {},
      section("help-rules", t("help.rules"), rulesText,
        house.length ? h("div", {}, h("h4", {}, t("help.house_on")),
          h("ul", {}, house.map((o) => h("li", {}, h("strong", {}, t(o.label)), " — ", t(o.help))))) : null,
        on.length ? h("p.hint", {}, t("help.options_on", { text: on.join(" · ") })) : null),
      section("help-cards", t("help.cards"), legend(catalog, room.variant)),
      section("help-keys", t("help.keys"), h("p.hint", {}, t("help.keys_text")), keys, keySettingsBox(catalog.keys))),
  );
  if (!shown.open) shown.showModal();
  try {
    const asked = { variant: room.variant, players: room.players, options: room.options, lang: lang() };
    const reply = await api("/api/rules", asked);
    clear(rulesText);
    /** @type {HTMLUListElement | null} */
    let list = null;
    for (const line of /** @type {string[]} */ (reply.lines)) {
      if (!line.trim()) continue;
      if (line.startsWith("  ")) {
        if (!list) {
          list = h("ul");
          rulesText.append(list);
        }
        list.append(h("li", {}, line.trim()));
      } else {
        list = null;
        rulesText.append(h("p", {}, line));
      }
    }
  } catch (err) {
    clear(rulesText).append(h("p.error", {}, /** @type {Error} */ (err).message));
  }
}
