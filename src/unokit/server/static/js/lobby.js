// The lobby: your name, Play now (a seat at a public table at once), start a game (a variant, a
// preset of rules or your own, seats and bots) or join one by its code, and the arenas running
// (arena.js) first beside them. Every rule option comes from the engine's catalogue
// (/api/catalog) with its label and a one-line explanation; the house rules are in view, the
// rest folded under "More rules". On a phone the panels come in that order, a running arena and
// Play now second; at a desk the room form fills the left column.

import { api, memory } from "./net.js";
import { clear, fieldError, h } from "./dom.js";
import { logoSvg } from "./cards.js";
import { errorText } from "./net.js";
import { N_, lang, t } from "./i18n.js";
import { botChoice, botOptions, valueWords } from "./options.js";
import { playNowPanel, publicRoomsPanel } from "./together.js";
import { dailyPanel } from "./daily.js";
import { arenaPanel } from "./arena.js";
import { runs } from "./features.js";

/** The presets of rules: the variant's official rules, a house party, or your own choice. */
/** @type {Record<string, [string, string]>} */
const PRESET_WORDS = {
  official: [N_("lobby.preset.official"), N_("lobby.preset.official.help")],
  house: [N_("lobby.preset.house"), N_("lobby.preset.house.help")],
  custom: [N_("lobby.preset.custom"), N_("lobby.preset.custom.help")],
};

/** @type {Record<string, Record<string, unknown>>} the options each preset sets */
export const PRESETS = {
  official: {},
  house: { jump_in: true, seven_o: true, stacking: "progressive" },
};

/** @param {string} message */
function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

/**
 * An option's label: the catalogue key the server's option list gives it.
 * @param {import("./types").OptionInfo} option
 */
function optionLabel(option) {
  return t(option.label);
}

/**
 * An option's one-line explanation (its catalogue key from the server's option list).
 * @param {import("./types").OptionInfo} option
 */
function optionHelp(option) {
  return t(option.help);
}

/**
 * One form control for an engine option, its default shown and preselected.
 * @param {import("./types").OptionInfo} option
 * @param {string} variantName
 * @param {() => void} onChange
 */
function optionField(option, variantName, onChange) {
  const id = `opt-${option.name}`;
  const help = optionHelp(option);
  const hintId = `${id}-hint`;
  const hint = h("span.hint", { id: hintId }, help);
  let input;
  if (option.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: option.name, "aria-describedby": hintId });
    input.checked = Boolean(option.default);
    input.addEventListener("change", onChange);
    return h("div.field.check", { dataset: { variant: variantName, option: option.name } }, input,
      h("label", { for: id }, optionLabel(option)), hint);
  }
  if (option.kind === "choice") {
    const choices = /** @type {string[]} a choice's words */ (option.choices);
    input = h("select", { id, name: option.name, "aria-describedby": hintId },
      choices.filter((c) => c !== "scripted").map((c) => h("option", { value: c, selected: c === String(option.default) },
      valueWords(option, c))));
  } else if (option.kind === "int" || option.kind === "int_or_none") {
    input = h("input",
      { type: "number", min: String(option.minimum), id, name: option.name,
      placeholder: option.default === null ? t("lobby.none") : String(option.default), "aria-describedby": hintId });
  } else if (option.kind === "lines") {
    input = h("input", { type: "file", id, name: option.name, accept: ".deck,.txt,text/plain", "aria-describedby": hintId });
  } else {
    input = h("input", { type: "text", id, name: option.name, "aria-describedby": hintId });
  }
  input.addEventListener("change", onChange);
  input.addEventListener("input", onChange);
  return h("div.field", { dataset: { variant: variantName, option: option.name } }, h("label", { for: id }, optionLabel(option)), input,
    hint);
}

/**
 * The value an option's control holds now (null: left at its default).
 * @param {HTMLFormElement} form
 * @param {import("./types").OptionInfo} option
 * @returns {Promise<unknown>}
 */
async function readOption(form, option) {
  // An input, or a select (whose value reads the same).
  const input = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(option.name));
  if (!input) return null;
  if (option.kind === "bool") return input.checked !== Boolean(option.default) ? input.checked : null;
  if (option.kind === "choice") return input.value !== String(option.default) ? (input.value === "false" ? false : input.value) : null;
  if (option.kind === "lines") return input.files && input.files[0] ? await input.files[0].text() : null;
  if (input.value.trim() === "") return null;
  if (option.kind === "int" || option.kind === "int_or_none") return Number(input.value) === option.default ? null : Number(input.value);
  if (option.kind === "numbers") return input.value.trim().split(/[\s,;]+/).map(Number);
  return input.value;
}

/**
 * Set an option's control to a value (a preset).
 * @param {HTMLFormElement} form
 * @param {import("./types").OptionInfo} option
 * @param {unknown} value
 */
function writeOption(form, option, value) {
  // An input, or a select (whose value is set the same).
  const input = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(option.name));
  if (!input || option.kind === "lines") return;
  if (option.kind === "bool") input.checked = Boolean(value);
  else if (option.kind === "choice") input.value = String(value);
  else input.value = value === null || value === undefined || value === option.default ? "" : String(value);
}

/**
 * The lobby page.
 * @param {HTMLElement} app
 * @param {import("./types").Catalog} catalog
 * @returns {() => void} what to do when the page is left
 */
export function lobbyPage(app, catalog) {
  const names = Object.keys(catalog.variants);
  const create = h("form.panel#create-room", { "aria-labelledby": "create-title", novalidate: true });
  const variantSelect = h("select#variant", { name: "variant" }, names.map((n) => h("option", { value: n }, t(`variant.${n}`))));
  const variantHelp = h("p.hint#variant-hint");
  const players = h("input#players",
    { type: "number", name: "players", value: "4", min: "2", max: "10", required: true, inputmode: "numeric" });
  const bots = h("input#bots", { type: "number", name: "bots", value: "3", min: "0", max: "9", inputmode: "numeric" });
  // The strength alone in the list (a long option would widen the form on a phone); what it is
  // like under the row.
  const strength = h("select#bot-kind", { name: "bot", "aria-describedby": "bot-kind-hint" }, botOptions(catalog, "normal"));
  const strengthHelp = h("p.hint#bot-kind-hint", {}, botChoice(strength.value));
  strength.addEventListener("change", () => { strengthHelp.textContent = botChoice(strength.value); });
  const yourName = h("input#your-name",
    { type: "text", name: "name", maxlength: "40", required: true, value: memory.name(), autocomplete: "nickname" });
  const presetBox = h("fieldset.presets", {}, h("legend", {}, t("lobby.rules")));
  const houseBox = h("fieldset.options.house", {}, h("legend", {}, t("lobby.house_rules")));
  const moreBox = h("div.options.more");
  const settingsBox = h("fieldset.settings", {}, h("legend", {}, t("lobby.settings_legend")));
  for (const [name, value] of Object.entries(catalog.settings)) {
    if (name === "standin_bot" || typeof value === "boolean") continue;
    const id = `set-${name}`;
    const [low, high] = catalog.setting_limits[name] || [0, 3600];
    settingsBox.append(h("div.field", {}, h("label", { for: id }, t(`setting.${name}`)),
      h("input",
        { type: "number", id, name, min: String(low), max: String(high), step: "any", placeholder: String(value), inputmode: "decimal",
        "aria-describedby": `${id}-hint` }),
      h("span.hint", { id: `${id}-hint` }, t(`setting.${name}.help`), " ", t("lobby.default", { value: String(value) }))));
  }
  const message = h("div.form-message", { "aria-live": "polite" });
  let matching = false;

  /** @param {string} name official, house or custom */
  const presetRadio = (name) => h("label.preset", { for: `preset-${name}` },
    h("input", { type: "radio", name: "preset", id: `preset-${name}`, value: name, checked: name === "official" || undefined }),
    h("span.preset-title", {}, t(PRESET_WORDS[name][0])),
    h("span.hint", {}, t(PRESET_WORDS[name][1])));
  presetBox.append(presetRadio("official"), presetRadio("house"), presetRadio("custom"));

  /** Which preset the controls hold now ("custom" when none). */
  async function currentPreset() {
    const variant = catalog.variants[variantSelect.value];
    /** @type {Record<string, unknown>} */
    const changed = {};
    for (const option of variant.options) {
      const value = await readOption(create, option);
      if (value !== null) changed[option.name] = value;
    }
    for (const [name, values] of Object.entries(PRESETS)) {
      const wanted = Object.fromEntries(Object.entries(values).filter(([key]) => variant.options.some((o) => o.name === key)));
      if (JSON.stringify(Object.keys(changed).sort().map((k) => [k,
        changed[k]])) === JSON.stringify(Object.keys(wanted).sort().map((k) => [k, wanted[k]]))) return name;
    }
    return "custom";
  }

  const optionsChanged = async () => {
    if (matching) return;
    const name = await currentPreset();
    /** @type {HTMLInputElement} */ (create.querySelector(`#preset-${name}`)).checked = true;
  };

  /** @param {string} name */
  const applyPreset = (name) => {
    if (name === "custom") return;
    const variant = catalog.variants[variantSelect.value];
    matching = true;
    for (const option of variant.options) {
      const values = PRESETS[name];
      writeOption(create, option, option.name in values ? values[option.name] : option.default);
    }
    matching = false;
  };
  presetBox.addEventListener("change", (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    if (input.name === "preset") applyPreset(input.value);
  });

  const showOptions = () => {
    const variant = catalog.variants[variantSelect.value];
    clear(houseBox).append(h("legend", {}, t("lobby.house_rules")));
    clear(moreBox);
    for (const option of variant.options) {
      if (option.name === "launcher_script") continue; // only with the scripted launcher, for tests
      (option.house_rule ? houseBox : moreBox).append(optionField(option, variantSelect.value, optionsChanged));
    }
    variantHelp.textContent = t(`variant.${variantSelect.value}.help`);
    players.min = String(variant.min_players);
    players.max = String(variant.max_players);
    bots.max = String(variant.max_players - 1);
    const preset = create.querySelector(/** @type {"input"} */ ("input[name=preset]:checked"));
    applyPreset(preset ? preset.value : "official");
  };
  variantSelect.addEventListener("change", showOptions);
  create.append(
    h("h2#create-title", {}, t("lobby.create")),
    h("div.field", {}, h("label", { for: "variant" }, t("lobby.variant")), variantSelect, variantHelp),
    h("div.row.seats-row", {},
      h("div.field", {}, h("label", { for: "players" }, t("lobby.players")), players),
      h("div.field", {}, h("label", { for: "bots" }, t("lobby.bots")), bots),
      h("div.field", {}, h("label", { for: "bot-kind" }, t("lobby.bot_strength")), strength)),
    strengthHelp,
    presetBox,
    houseBox,
    h("details.more-rules", {}, h("summary", {}, t("lobby.more_rules")), moreBox),
    h("details.timers", {}, h("summary", {}, t("lobby.timers")), settingsBox),
    h("div.field.check", {}, h("input#public-room", { type: "checkbox", name: "public", "aria-describedby": "public-help" }),
      h("label", { for: "public-room" }, t("lobby.public")), h("span.hint#public-help", {}, t("lobby.rated_rule"))),
    h("div.field.check", {}, h("input#untimed", { type: "checkbox", name: "untimed", "aria-describedby": "untimed-help" }),
      h("label", { for: "untimed" }, t("lobby.untimed")), h("span.hint#untimed-help", {}, t("lobby.untimed_help"))),
    ...(runs("hints") ? [h("div.field.check", {},
      h("input#allow-hints", { type: "checkbox", name: "hints", "aria-describedby": "allow-hints-help" }),
      h("label", { for: "allow-hints" }, t("setting.hints")), h("span.hint#allow-hints-help", {}, t("setting.hints.help")))] : []),
    h("button.primary.big#create-button", { type: "submit" }, t("lobby.create_button")),
    message,
  );
  showOptions();
  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (create.querySelector("#create-button"));
    if (button.disabled) return;
    const variant = catalog.variants[variantSelect.value];
    const seats = Number(players.value);
    const botCount = Number(bots.value || 0);
    clear(message);
    if (!yourName.value.trim()) {
      fieldError(yourName, t("lobby.name_first"));
      return;
    }
    if (!(seats >= variant.min_players && seats <= variant.max_players)) {
      message.append(errorBox(t("lobby.players_range", { low: variant.min_players, high: variant.max_players })));
      return;
    }
    if (!(botCount >= 0 && botCount <= seats - 1)) {
      message.append(errorBox(t("lobby.bots_range", { high: seats - 1 })));
      return;
    }
    /** @type {Record<string, unknown>} */
    const options = {};
    for (const option of variant.options) {
      const value = await readOption(create, option);
      if (value !== null) options[option.name] = value;
    }
    /** @type {Record<string, number | boolean>} */
    const settings = {};
    for (const name of Object.keys(catalog.settings)) {
      const input = /** @type {HTMLInputElement | null} */ (create.elements.namedItem(name));
      if (name === "hints") {
        if (input && input.checked) settings.hints = true;
      } else if (input && input.value.trim() !== "") settings[name] = Number(input.value);
    }
    // untimed: no turn timer at all
    if (/** @type {HTMLInputElement} */ (create.querySelector("#untimed")).checked) settings.turn_seconds = 0;
    button.disabled = true;
    try {
      /** @type {{variant: string, players: number, options: object, settings: object, bots: string[], public?: boolean, lang?: string}} */
      const request = { variant: variantSelect.value, players: seats, options, settings, bots: Array(botCount).fill(strength.value) };
      if (/** @type {HTMLInputElement} */ (create.querySelector("#public-room")).checked) request.public = true;
      if (lang() in catalog.languages) request.lang = lang(); // the bots take names of the host's language
      const room = await api("/api/rooms", request);
      memory.setHost(room.room, room.host_token);
      memory.setName(yourName.value.trim());
      sessionStorage.setItem(`unokit.join.${room.room}`, yourName.value.trim());
      location.assign(`/r/${room.room}`);
    } catch (err) {
      message.append(errorBox(errorText(err)));
      button.disabled = false;
    }
  });

  const join = h("form.panel#join-room", { "aria-labelledby": "join-title" });
  const code = h("input#join-code",
    { type: "text", name: "code", required: true, maxlength: "16", autocapitalize: "characters", autocomplete: "off",
    spellcheck: "false" });
  join.append(
    h("h2#join-title", {}, t("lobby.join")),
    h("div.field", {}, h("label", { for: "join-code" }, t("lobby.room_code")), code),
    h("button.primary", { type: "submit" }, t("lobby.go_to_room")),
  );
  join.addEventListener("submit", (event) => {
    event.preventDefault();
    if (code.value.trim()) location.assign(`/r/${code.value.trim().toUpperCase()}`);
  });
  const welcome = h("section.panel.welcome", {}, logoSvg("logo big"), h("h1", {}, t("lobby.welcome")), h("p", {}, t("lobby.welcome_text")),
    h("div.field.name-field", {}, h("label", { for: "your-name" }, t("lobby.your_name")), yourName));
  const real = h("section.panel.real-table", {}, h("h2", {}, t("lobby.real_table")), h("p", {}, t("lobby.real_table.text")),
    h("p.links", {}, h("a", { href: "/#/sheet" }, t("ui.nav.sheet")), " · ", h("a", { href: "/#/launcher" }, t("ui.nav.launcher"))));
  const [publicRooms, stopPublic] = publicRoomsPanel(catalog);
  const playNow = playNowPanel(catalog, yourName);
  const [arenas, stopArenas] = runs("arena") ? arenaPanel(yourName) : [null, () => {}];
  app.append(h("div.lobby", { "data-region": "lobby" },
    h("div.lobby-main", {}, welcome, create),
    h("div.side-panels", {}, arenas, playNow, runs("daily") ? dailyPanel(yourName) : null, publicRooms, join, real)));
  return () => { stopPublic(); stopArenas(); };
}
