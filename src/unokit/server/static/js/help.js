// Help in the page: the rules being played (the variant in short, from the engine, and the house
// rules that are on), the legend of every card of the variant, and the keys (the key map the
// terminal game shares, GET /api/catalog "keys").

import { cardNode, kindTitle } from "./cards.js";
import { clear, h } from "./dom.js";
import { api } from "./net.js";
import { rulesOn } from "./options.js";
import { t } from "./text.js";

let dialog = null;

function section(id, title, ...content) {
  return h("section.help-section", { id, "aria-labelledby": `${id}-title` }, h("h3", { id: `${id}-title` }, title), ...content);
}

/** The legend: every card kind of the variant's sides, drawn, with its name and what it does. */
export function legend(catalog, variantName) {
  const variant = catalog.variants[variantName];
  const box = h("div.legend");
  variant.kinds.forEach((kinds, side) => {
    const colors = variant.side_colors[side];
    const list = h("ul.legend-list");
    const numbers = kinds.filter((k) => /^\d+$/.test(k));
    if (numbers.length) {
      list.append(h("li", {}, cardNode(`${colors[0]} ${numbers[numbers.length - 1]}`, side, colors, { small: true }),
        h("span", {}, h("strong", {}, t("web.legend.numbers", { low: numbers[0], high: numbers[numbers.length - 1] })), h("span.hint", {}, t("web.legend.number")))));
    }
    for (const kind of kinds.filter((k) => !/^\d+$/.test(k))) {
      const wild = catalog.kinds.find((k) => k.name === kind).wild;
      const face = wild ? kind : `${colors[side === 0 ? 1 : 2]} ${kind}`;
      list.append(h("li", { dataset: { kind } }, cardNode(face, side, colors, { small: true }), h("span", {}, h("strong", {}, kindTitle(kind)), h("span.hint", {}, t(`web.legend.${kind}`, {}, "")))));
    }
    if (variant.double_sided) box.append(h("h4", {}, t("web.legend.side", { side: t(`side.${variant.side_names[side]}`) })));
    box.append(list);
  });
  const symbols = h("ul.symbol-list");
  for (const color of catalog.colors) symbols.append(h("li", {}, h(`span.swatch.c-${color.name}`, { "aria-hidden": "true" }), t("web.legend.symbol", { color: t(`color.${color.name}`), symbol: t(`symbol.${color.symbol}`) })));
  box.append(h("h4", {}, t("web.legend.symbols")), h("p.hint", {}, t("web.legend.symbols_text")), symbols);
  return box;
}

/** Open the help for a room (its variant, rules and options). */
export async function openHelp(catalog, room) {
  if (!dialog) {
    dialog = h("dialog.help#help", { "aria-labelledby": "help-title" });
    document.body.append(dialog);
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  }
  const variant = catalog.variants[room.variant];
  const rulesText = h("div.rules-text", {}, h("p.hint", {}, t("web.help.loading")));
  const on = rulesOn(catalog, room);
  const house = variant.options.filter((o) => o.house_rule && room.options[o.name] && room.options[o.name] !== "false");
  const keys = h("table.keys", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("web.help.key")), h("th", { scope: "col" }, t("web.help.does")))));
  const body = h("tbody");
  for (const binding of catalog.keys.filter((b) => b.where !== "terminal")) {
    body.append(h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, binding.shown)), h("td", {}, t(`keys.${binding.command}`, {}, binding.words))));
  }
  keys.append(body);
  const nav = h("nav.help-nav", { "aria-label": t("web.help.sections") },
    h("a", { href: "#help-rules" }, t("web.help.rules")), h("a", { href: "#help-cards" }, t("web.help.cards")), h("a", { href: "#help-keys" }, t("web.help.keys")));
  clear(dialog).append(
    h("div.help-head", {}, h("h2#help-title", {}, t("web.help.title", { variant: variant.title })), h("button.close-help", { type: "button", "aria-label": t("web.close"), onclick: () => dialog.close() }, "✕")),
    nav,
    h("div.help-body", {},
      section("help-rules", t("web.help.rules"), rulesText,
        house.length ? h("div", {}, h("h4", {}, t("web.help.house_on")), h("ul", {}, house.map((o) => h("li", {}, h("strong", {}, t(`option.${o.name}`, {}, o.name)), " — ", t(`option.${o.name}.help`, {}, ""))))) : null,
        on.length ? h("p.hint", {}, t("web.help.options_on", { list: on.join(" · ") })) : null),
      section("help-cards", t("web.help.cards"), legend(catalog, room.variant)),
      section("help-keys", t("web.help.keys"), h("p.hint", {}, t("web.help.keys_text")), keys)),
  );
  if (!dialog.open) dialog.showModal();
  try {
    const reply = await api("/api/rules", { variant: room.variant, players: room.players, options: room.options });
    clear(rulesText);
    const lines = reply.lines.filter((line) => !line.startsWith("The whole rules"));
    let list = null;
    for (const line of lines) {
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
    clear(rulesText).append(h("p.error", {}, err.message));
  }
}
