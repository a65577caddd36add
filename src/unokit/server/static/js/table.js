// The game table: what one seat sees (its observation), the decisions the server offers it
// (legal_actions, in the engine's text notation) as controls, the event log in words, the
// round summary and the game-over screen. Nothing here decides a rule: a card is playable
// because an action that plays it is in legal_actions, and every action sent is one of them.

import { animate, clear, h, tone } from "./dom.js";
import { cardNode, catalog, colorWords, faceOf, faceOrder, faceTitle, isColor, kindShort, parseFace, symbolOf } from "./cards.js";
import { colorName, say, t } from "./i18n.js";

const LOG_LINES = 200;

/** Read one action text of legal_actions against the hand: {verb, card, color, uno, seat, text}. */
export function parseAction(text, hand) {
  const parts = text.trim().split(/\s+/);
  const verb = parts[0];
  let rest = parts.slice(1);
  const out = { verb, text, card: null, color: null, uno: false, seat: null };
  if (rest.length && rest[rest.length - 1] === "uno") {
    out.uno = true;
    rest = rest.slice(0, -1);
  }
  if (verb === "play" || verb === "discard") {
    const whole = rest.join(" ");
    if (hand.includes(whole)) out.card = whole;
    else if (rest.length > 1 && isColor(rest[rest.length - 1])) {
      out.card = rest.slice(0, -1).join(" ");
      out.color = rest[rest.length - 1];
    } else out.card = whole;
  } else if (verb === "play_drawn" || verb === "color") {
    if (rest.length && isColor(rest[0])) out.color = rest[0];
  } else if (verb === "trade" || verb === "catch") {
    out.seat = Number(rest[0]);
  }
  return out;
}

function sideIndex(obs, variant) {
  const index = variant.side_names.indexOf(obs.side);
  return index < 0 ? 0 : index;
}

/** Group legal actions: per hand card (plays or discards), and the other controls. */
function groupActions(obs) {
  const byCard = new Map();
  const other = [];
  for (const text of obs.legal_actions) {
    const action = parseAction(text, obs.hand);
    if (action.card !== null && obs.hand.includes(action.card)) {
      if (!byCard.has(action.card)) byCard.set(action.card, []);
      byCard.get(action.card).push(action);
    } else other.push(action);
  }
  return { byCard, other };
}

export class TableView {
  /**
   * root: the element to draw into; conn: the RoomConnection; variant: the catalogue's
   * variant; code: the room code.
   */
  constructor(root, conn, code) {
    this.root = root;
    this.conn = conn;
    this.code = code;
    this.state = null;
    this.room = null;
    this.log = [];
    this.unoArmed = false;
    this.choosing = null; // {title, actions}: a card waiting for its colour
    this.summary = JSON.parse(sessionStorage.getItem(`unokit.summary.${code}`) || "null");
    this.summaryOpen = false;
    this.revealed = null;
    this.error = null;
    this.playAgain = null; // () => the play-again area of a finished game (set by the room page)
    this.overClosed = null; // the game whose game-over screen the reader closed
    this.timer = setInterval(() => this.tick(), 250);
    this.keyHandler = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keyHandler);
  }

  get variant() {
    return catalog().variants[(this.room || this.state.room).variant];
  }

  /** Seat names (a bot by its level, in the reader's language); a name several seats share
   * (two bots of one level) gets its seat number, counted from 1. */
  names() {
    const seats = (this.room || this.state.room).seats;
    const plain = seats.map((s, i) => (s.kind === "bot" && s.bot ? t("seat.bot_name", { bot: t(`bot.${s.bot}`) }) : s.name || t("seat.numbered", { number: i + 1 })));
    return plain.map((name, i) => (plain.filter((n) => n === name).length > 1 ? t("seat.name_numbered", { name, number: i + 1 }) : name));
  }

  update(state) {
    const previous = this.state;
    this.state = state;
    this.room = state.room;
    if (state.lines && state.lines.length) {
      this.log.push(...state.lines);
      this.log = this.log.slice(-LOG_LINES);
    }
    if (state.summary) {
      this.summary = state.summary;
      this.summaryOpen = true;
      sessionStorage.setItem(`unokit.summary.${this.code}`, JSON.stringify(state.summary));
    }
    const me = state.seat;
    for (const event of state.events || []) {
      if (event.type === "challenge" && event.revealed && event.seat === me) {
        this.revealed = { by: this.names()[event.target], cards: event.revealed, success: event.success };
      }
    }
    if (!previous || previous.version !== state.version) {
      this.choosing = null;
      this.error = null;
    }
    const obs = state.observation;
    if (obs && !obs.legal_actions.some((a) => a.endsWith(" uno"))) this.unoArmed = false;
    if (obs && obs.round !== (previous && previous.observation && previous.observation.round) && !state.summary && this.room.phase === "playing") {
      this.summaryOpen = false;
    }
    this.render();
    this.animateEvents(state.events || [], me);
  }

  updateRoom(room) {
    this.room = room;
    if (this.state) this.state = { ...this.state, room };
    this.render();
  }

  showError(message) {
    this.error = message;
    this.render();
  }

  setBusy(busy) {
    this.root.classList.toggle("busy", busy);
    this.root.querySelectorAll("[data-action], .hand-card.playable").forEach((b) => {
      b.disabled = busy;
    });
  }

  act(text) {
    if (!this.conn.act(text)) return;
    this.choosing = null;
    this.unoArmed = false;
  }

  // ------------------------------------------------------------------ animation and sound
  animateEvents(events, me) {
    for (const event of events) {
      if (event.type === "play" || event.type === "discard") animate(this.root.querySelector(".discard .card"), "anim-play");
      if (event.type === "draw" && event.seat === me) animate(this.root.querySelector(".hand"), "anim-draw");
      if (event.type === "flip") animate(this.root.querySelector(".table"), "anim-flip");
      if (event.type === "press") {
        animate(this.root.querySelector(".draw-pile"), event.fired ? "anim-fire" : "anim-press");
        if (event.fired) [0, 0.08, 0.16].forEach((t) => tone(220 - t * 400, 0.1, "sawtooth", t));
        else tone(520, 0.05, "square");
      }
      if (event.type === "uno") tone(880, 0.15, "triangle");
    }
  }

  // ------------------------------------------------------------------ keyboard
  onKey(event) {
    if (!this.state || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const key = event.key.toLowerCase();
    const click = (selector) => {
      const node = this.root.querySelector(selector);
      if (node && !node.disabled) {
        node.click();
        event.preventDefault();
      }
    };
    if (key === "d") click('[data-verb="draw"], [data-verb="press"], [data-verb="press_again"]');
    else if (key === "u") click('[data-verb="uno"], .uno-toggle');
    else if (key === "c") click('[data-verb="catch"]');
    else if (key === "k") click('[data-verb="keep"]');
    else if (key === "p") click('[data-verb="play_drawn"]');
    else if (key === "escape") click(".cancel-choice, .close-overlay");
    else if (key === "arrowleft" || key === "arrowright") {
      const cards = [...this.root.querySelectorAll(".hand-card")];
      const at = cards.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length;
      if (cards[next]) {
        cards[next].focus();
        event.preventDefault();
      }
    } else if (/^[1-9]$/.test(key)) {
      const buttons = [...this.root.querySelectorAll(".choices [data-action]")];
      const node = buttons[Number(key) - 1];
      if (node && !node.disabled) {
        node.click();
        event.preventDefault();
      }
    }
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const state = this.state;
    if (!state) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const obs = state.observation;
    clear(this.root);
    this.root.dataset.step = String(state.game_step);
    this.root.dataset.game = String(this.room.game_no);
    if (!obs) {
      this.root.append(h("p.notice", {}, t("table.not_started")));
      return;
    }
    const variant = this.variant;
    const side = sideIndex(obs, variant);
    const sideColors = variant.side_colors[side] || variant.side_colors[0];
    const table = h(`section.table.side-${side}`, { "aria-label": t("table.label") });
    table.append(this.renderSeats(obs, side, variant), this.renderCentre(obs, side, sideColors, variant));
    const mine = state.seat !== null && state.seat !== undefined;
    const prompt = this.renderPrompt(obs, side, sideColors, mine);
    const hand = mine ? this.renderHand(obs, side, sideColors) : h("p.spectating", {}, t("table.spectating"));
    const main = h("div.play-area", {}, table, prompt, hand);
    const aside = h("aside.sidebar", { "aria-label": t("table.sidebar") }, this.renderScores(obs), this.renderLog());
    this.root.append(h("div.table-layout", {}, main, aside));
    const overlay = this.renderOverlay(obs, side);
    if (overlay && overlay.classList.contains("in-flow")) this.root.prepend(overlay);
    else if (overlay) this.root.append(overlay);
    if (focused) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    this.setBusy(this.conn.busy);
    this.tick();
  }

  seatLabel(seat) {
    const room = this.room;
    const info = room.seats[seat];
    const bits = [];
    if (info.kind === "bot") bits.push(t(`bot.${info.bot}`));
    if ((room.away || []).includes(seat)) bits.push(t("seat.away"));
    else if (info.kind === "human" && room.connected && !room.connected[seat]) bits.push(t("seat.disconnected"));
    return bits.join(", ");
  }

  renderSeats(obs, side, variant) {
    const names = this.names();
    const me = this.state.seat;
    const row = h("ol.seats", { "aria-label": t("table.players") });
    const backSide = 1 - side;
    const backColors = variant.side_colors[backSide] || variant.side_colors[0];
    for (let seat = 0; seat < obs.players; seat++) {
      const active = obs.to_act === seat;
      const item = h(`li.seat${active ? ".to-act" : ""}${seat === me ? ".me" : ""}`, {
        "aria-current": active ? "true" : undefined,
        dataset: { seat: String(seat) },
      });
      const count = obs.hand_sizes[seat];
      const extra = this.seatLabel(seat);
      item.append(
        h("div.seat-name", {}, names[seat], seat === me ? h("span.you", {}, " ", t("seat.you_mark")) : null, obs.dealer === seat ? h("span.badge", { title: t("seat.dealer") }, t("seat.dealer_badge")) : null),
        h("div.seat-info", {}, t("n.cards", { count }), " · ", t("n.points", { count: obs.scores[seat] }), extra ? h("span.seat-extra", {}, ` · ${extra}`) : null),
      );
      if (active) item.append(h("div.seat-turn", {}, t("seat.to_act", { todo: t(`decision.${obs.decision}.todo`) })));
      if (obs.uno_exposed === seat && count === 1) item.append(h("div.badge.warn", {}, t("seat.no_uno")));
      if (count === 1) item.append(h("div.badge.uno", {}, t("seat.one_card")));
      const backs = obs.backs ? obs.backs[seat] : null;
      const fan = h("div.fan", { "aria-label": backs ? t("seat.backs_label", { player: names[seat] }) : t("seat.face_down_label", { player: names[seat] }) });
      if (backs) {
        backs.forEach((face) => fan.append(cardNode(face, backSide, backColors, { small: true, extraLabel: t("card.back") })));
      } else if (seat !== me) {
        for (let i = 0; i < Math.min(count, 12); i++) fan.append(cardNode(null, 0, [], { small: true }));
        if (count > 12) fan.append(h("span.more", {}, `+${count - 12}`));
      }
      if (seat !== me || !obs.hand.length) item.append(fan);
      row.append(item);
    }
    return row;
  }

  renderCentre(obs, side, sideColors, variant) {
    const centre = h("div.centre");
    const backSide = 1 - side;
    const backColors = variant.side_colors[backSide] || sideColors;
    let drawFace = null;
    let drawLabel = obs.launcher ? t("n.table.launcher", { count: obs.draw_size }) : t("n.table.draw_pile", { count: obs.draw_size });
    if (obs.draw_top_back) {
      drawFace = obs.draw_top_back;
      drawLabel = t("table.top_back", { pile: drawLabel, card: faceTitle(drawFace) });
    }
    const drawCard = cardNode(drawFace, obs.draw_top_back ? backSide : 0, backColors, { extraLabel: "" });
    drawCard.setAttribute("aria-label", drawLabel);
    const pile = h(`div.draw-pile${obs.launcher ? ".launcher" : ""}`, {}, drawCard, h("div.pile-count", {}, t(obs.launcher ? "table.launcher_count" : "table.draw_count", { count: obs.draw_size })));
    const discard = h("div.discard", { "aria-label": t("table.discard_pile") });
    const recent = obs.discard.slice(-3);
    recent.forEach((face, i) => {
      const node = cardNode(face, side, sideColors, { extraLabel: i === recent.length - 1 ? t("table.top_of_discard") : t("table.under_top") });
      node.style.setProperty("--i", String(recent.length - 1 - i));
      discard.append(node);
    });
    const info = h("dl.facts");
    const fact = (label, value, cls = "") => info.append(h(`div.fact${cls}`, {}, h("dt", {}, label), h("dd", {}, value)));
    const color = obs.color;
    fact(t("table.color_in_play"), h(`span.chip.c-${color || "none"}`, { "aria-label": colorWords(color) }, color ? `${symbolGlyph(color)} ${colorName(color)}` : t("table.being_chosen")));
    fact(t("table.direction"), `${obs.direction === "clockwise" ? "↻" : "↺"} ${t(`direction.${obs.direction}`)}`);
    if (variant.double_sided) fact(t("table.side"), t("table.side_value", { side: t(`side.${obs.side}`) }), ".side-fact");
    fact(t("table.round"), String(obs.round));
    if (obs.stack) fact(t("table.stacked"), t("n.cards", { count: obs.stack }));
    if (obs.launcher) fact(t("table.launcher"), launcherWords(obs.launcher));
    centre.append(pile, discard, info);
    return centre;
  }

  renderPrompt(obs, side, sideColors, mine) {
    const names = this.names();
    const box = h("section.prompt", { "aria-label": t("table.your_decision"), "aria-live": "polite" });
    const timer = h("div.timer", { role: "timer", "aria-label": t("table.time_left") });
    const choices = h("div.choices");
    let message = "";
    const { byCard, other } = mine ? groupActions(obs) : { byCard: new Map(), other: [] };
    const myTurn = mine && obs.to_act === this.state.seat;
    const pending = obs.pending || {};
    const phase = this.room.phase;
    if (obs.over) message = t("decision.over");
    else if (phase === "hand_over") message = t("table.hand_over");
    else if (!myTurn) {
      message = obs.to_act === null || obs.to_act === undefined ? "" : t("table.waiting_for", { player: names[obs.to_act], todo: t(`decision.${obs.decision}.todo`) });
    } else if (this.choosing) {
      const chosen = this.choosing;
      message = chosen.prompt;
      for (const action of chosen.actions) {
        choices.append(h(`button.color-choice.c-${action.color}`, { dataset: { action: action.text, verb: action.verb, key: `color-${action.color}` }, onclick: () => this.act(action.text), "aria-label": t("table.name_color", { color: colorWords(action.color) }) }, `${symbolGlyph(action.color)} ${colorName(action.color)}`));
      }
      choices.append(h("button.cancel-choice", { onclick: () => { this.choosing = null; this.render(); } }, t("table.cancel")));
    } else {
      message = promptMessage(obs, names, pending, side);
    }
    if (myTurn && !this.choosing) {
      const decision = obs.decision;
      const plain = other.filter((a) => !a.uno);
      const colorPicks = plain.filter((a) => a.verb === "color");
      if (colorPicks.length) {
        colorPicks.forEach((a) => choices.append(h(`button.color-choice.c-${a.color}`, { dataset: { action: a.text, verb: a.verb, key: a.text }, onclick: () => this.act(a.text), "aria-label": t("table.name_color", { color: colorWords(a.color) }) }, `${symbolGlyph(a.color)} ${colorName(a.color)}`)));
      }
      const drawn = plain.filter((a) => a.verb === "play_drawn");
      if (drawn.length) {
        const label = pending.card ? t("table.play_the", { card: faceTitle(faceOf(pending.card, side)) }) : t("action.play_drawn");
        choices.append(this.cardChoiceButton(label, "play_drawn", other.filter((a) => a.verb === "play_drawn"), t("table.color_for_drawn")));
      }
      for (const action of plain) {
        if (["color", "play_drawn", "uno", "catch"].includes(action.verb)) continue;
        choices.append(h(`button.${action.verb === "draw" || action.verb === "press" ? "primary" : "choice"}`, { dataset: { action: action.text, verb: action.verb, key: action.text }, onclick: () => this.act(action.text) }, actionLabel(action, obs, names, decision)));
      }
    }
    if (mine && !obs.over) {
      // Out of turn (or with the turn): a late UNO call, catching a player who forgot.
      for (const action of other) {
        if (action.verb === "uno") choices.append(h("button.uno-call", { dataset: { action: action.text, verb: "uno", key: "uno" }, onclick: () => this.act(action.text) }, t("action.uno")));
        if (action.verb === "catch") choices.append(h("button.catch", { dataset: { action: action.text, verb: "catch", key: action.text }, onclick: () => this.act(action.text) }, t("action.catch", { target: names[action.seat] })));
      }
      if (!myTurn) {
        // Jump-In (a house rule): a play offered out of turn is a jump with an identical card.
        for (const actions of byCard.values()) {
          for (const action of actions.filter((a) => a.verb === "play")) {
            const face = faceTitle(faceOf(action.card, side));
            choices.append(h("button.jump", { dataset: { action: action.text, verb: "jump", key: action.text }, onclick: () => this.act(action.text) }, t(action.uno ? "table.jump_in_uno" : "table.jump_in", { card: face })));
          }
        }
      }
      const unoForms = obs.legal_actions.some((a) => a.endsWith(" uno") && !a.startsWith("uno"));
      if (unoForms && myTurn) {
        choices.append(h(`button.uno-toggle${this.unoArmed ? ".armed" : ""}`, {
          "aria-pressed": this.unoArmed ? "true" : "false",
          dataset: { key: "uno-toggle" },
          onclick: () => { this.unoArmed = !this.unoArmed; this.render(); },
        }, this.unoArmed ? t("table.uno_armed") : t("table.uno_arm")));
      }
    }
    if (this.error) box.append(h("p.error", { role: "alert" }, this.error));
    box.append(h("p.message", {}, message), choices, timer);
    if (obs.over && this.overClosed === this.room.game_no) {
      box.append(h("button#show-result", { type: "button", onclick: () => { this.overClosed = null; this.render(); } }, t("table.show_result")));
      if (this.playAgain && this.room.phase === "finished") box.append(this.playAgain());
    }
    if (this.revealed) {
      const r = this.revealed;
      const shown = h("div.revealed", { role: "region", "aria-label": t("table.revealed_label", { player: r.by }) }, h("p", {}, t(r.success ? "table.revealed_succeeded" : "table.revealed_failed", { player: r.by })));
      const cards = h("div.mini-hand");
      r.cards.forEach((c) => cards.append(cardNode(faceOf(c, side), side, sideColors, { small: true })));
      shown.append(cards, h("button.close-overlay", { onclick: () => { this.revealed = null; this.render(); } }, t("table.close")));
      box.append(shown);
    }
    return box;
  }

  cardChoiceButton(label, verb, actions, colorPrompt) {
    return h("button.primary", { dataset: { action: actions[0].text, verb, key: `choice-${verb}` }, onclick: () => this.choose(actions, label, colorPrompt) }, label);
  }

  /** A card (or the drawn card) was picked: play it, or ask for the colour first. */
  choose(actions, title, colorPrompt) {
    const wanted = actions.filter((a) => a.uno === this.unoArmed);
    const pool = wanted.length ? wanted : actions.filter((a) => !a.uno);
    const usable = pool.length ? pool : actions;
    const colored = usable.filter((a) => a.color);
    if (colored.length > 1) {
      this.choosing = { prompt: colorPrompt, actions: colored, verbWord: "name" };
      this.render();
      const first = this.root.querySelector(".color-choice");
      if (first) first.focus();
      return;
    }
    this.act(usable[0].text);
  }

  renderHand(obs, side, sideColors) {
    const { byCard } = groupActions(obs);
    const myTurn = obs.to_act === this.state.seat;
    const sorted = [...obs.hand].sort((a, b) => faceOrder(faceOf(a, side), sideColors) - faceOrder(faceOf(b, side), sideColors));
    const wrap = h("section.hand-area", { "aria-label": t("n.table.your_hand", { count: sorted.length }) });
    const list = h("ul.hand", { dataset: { count: String(sorted.length) } });
    list.style.setProperty("--n", String(sorted.length));
    sorted.forEach((text, index) => {
      const face = faceOf(text, side);
      const actions = byCard.get(text) || [];
      const playable = myTurn && actions.length > 0;
      const discarding = actions.some((a) => a.verb === "discard");
      const extra = [playable ? (discarding ? t("table.can_discard") : t("table.playable")) : ""];
      if (obs.backs !== undefined && text.includes("/")) extra.push(t("table.back", { card: faceTitle(faceOf(text, 1 - side)) }));
      const button = cardNode(face, side, sideColors, { tag: "button", extraLabel: extra.filter(Boolean).join(", ") });
      button.classList.add("hand-card");
      if (playable) button.classList.add("playable");
      button.dataset.card = text;
      button.dataset.key = `card-${text}-${index}`;
      // Every card stays focusable (a screen reader walks the whole hand); only playable
      // cards act.
      button.setAttribute("aria-disabled", playable ? "false" : "true");
      if (playable) {
        const title = t(discarding ? "action.discard" : "action.play", { card: faceTitle(face) });
        const colorPrompt = parseFace(face).kind === "wild_discard_all"
          ? t("table.which_color_discard")
          : t("table.color_for", { card: faceTitle(face) });
        button.addEventListener("click", () => this.choose(actions, title, colorPrompt));
      }
      const peek = text.includes("/") ? h("span.back-peek", { "aria-hidden": "true" }, t("table.back", { card: backShort(faceOf(text, 1 - side)) })) : null;
      list.append(h("li", {}, button, peek));
    });
    wrap.append(list);
    return wrap;
  }

  renderScores(obs) {
    const names = this.names();
    const scoring = t(`option.scoring.${obs.options.scoring}`);
    const caption = obs.options.rounds
      ? t("table.scores_rounds", { scoring, target: obs.options.target, rounds: t("n.rounds", { count: obs.options.rounds }) })
      : t("table.scores", { scoring, target: obs.options.target });
    const table = h("table.scores", {}, h("caption", {}, caption));
    const body = h("tbody");
    obs.scores.forEach((score, seat) => body.append(h(`tr${seat === this.state.seat ? ".me" : ""}`, {}, h("th", { scope: "row" }, names[seat]), h("td", {}, String(score)))));
    table.append(body);
    return table;
  }

  renderLog() {
    const list = h("ol.log", { "aria-label": t("table.log_label"), "aria-live": "polite", "aria-relevant": "additions" });
    const names = this.names();
    this.log.slice(-60).forEach((line) => list.append(h("li", {}, say(line, names))));
    const box = h("section.log-box", {}, h("h2", {}, t("table.events")), list);
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return box;
  }

  renderOverlay(obs, side) {
    const room = this.room;
    const summary = this.summary;
    const over = obs.over || room.phase === "finished";
    const showSummary = summary && (this.summaryOpen || room.phase === "hand_over");
    if (!over && !showSummary) return null;
    if (over && this.overClosed === room.game_no) return null;
    const names = this.names();
    // The game-over screen stays in the page's flow, above the table: the chat and the table
    // stay within reach while the players decide whether to play again.
    const dialog = h(`div.overlay${over ? ".in-flow" : ""}`, { role: over ? "region" : "dialog", "aria-modal": over ? undefined : "false", "aria-labelledby": "overlay-title" });
    const panel = h("div.overlay-panel");
    if (over) {
      const winners = obs.winners.map((s) => names[s]).join(t("list.separator"));
      panel.append(h("h2#overlay-title.game-over", {}, t("table.game_over", { winners })));
    } else {
      panel.append(h("h2#overlay-title", {}, t(summary.blocked ? "table.round_blocked" : "table.round_out", { round: summary.round, player: names[summary.winner] })));
    }
    if (summary) panel.append(this.renderSummary(summary));
    const buttons = h("div.overlay-buttons");
    if (over) {
      const number = room.game_no;
      buttons.append(
        h("a.button.download-record", { href: `/api/rooms/${this.code}/records/${number}`, download: `unokit-${this.code}-${number}.json` }, t("table.download_record")),
        h("a.button", { href: `/#/replay/${this.code}/${number}` }, t("table.replay")),
      );
      if (this.conn.isHost) buttons.append(h("button.primary", { dataset: { action: "start", verb: "host-start", key: "start-again" }, onclick: () => this.conn.host("start") }, t("host.start_new")));
      buttons.append(h("button.close-overlay", { onclick: () => { this.overClosed = room.game_no; this.summaryOpen = false; this.render(); } }, t("table.close")));
      if (this.playAgain && room.phase === "finished") panel.append(this.playAgain());
    } else {
      if (room.phase === "hand_over") {
        buttons.append(h("span.countdown", { dataset: { until: String(room.continue_at || "") } }, ""));
        if (this.conn.isHost) buttons.append(h("button.primary", { dataset: { verb: "host-continue", key: "continue" }, onclick: () => this.conn.host("continue") }, t("host.next_hand")));
      }
      buttons.append(h("button.close-overlay", { onclick: () => { this.summaryOpen = false; this.render(); } }, t("table.close")));
    }
    panel.append(buttons);
    dialog.append(panel);
    return dialog;
  }

  renderSummary(summary) {
    const caption = this.variant.double_sided
      ? t("summary.caption_side", { round: summary.round, side: t(`side.${summary.side}`) })
      : t("summary.caption", { round: summary.round });
    const table = h("table.summary", {}, h("caption", {}, caption));
    table.append(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("summary.player")), h("th", { scope: "col" }, t("summary.cards_left")), h("th", { scope: "col" }, t("summary.hand")), h("th", { scope: "col" }, t("summary.gained")), h("th", { scope: "col" }, t("summary.total")))));
    const body = h("tbody");
    for (const line of summary.lines) {
      const cards = line.cards.length ? line.cards.map((c) => t("summary.card_points", { card: faceTitle(c.card), points: c.points })).join(t("list.separator")) : line.hand_points ? "—" : t("cards.none");
      body.append(h(`tr${line.seat === summary.winner ? ".winner" : ""}`, {}, h("th", { scope: "row" }, this.names()[line.seat] || line.name), h("td.cards-left", {}, cards), h("td", {}, String(line.hand_points)), h("td", {}, line.gained ? `+${line.gained}` : "0"), h("td", {}, String(line.total))));
    }
    table.append(body);
    return table;
  }

  tick() {
    const room = this.room;
    if (!room) return;
    const timer = this.root.querySelector(".timer");
    const now = Date.now() / 1000;
    if (timer) {
      const settings = room.settings || {};
      if (room.deadline && room.phase === "playing") {
        const left = Math.max(0, room.deadline - now);
        const total = settings.turn_seconds || left || 1;
        timer.textContent = t("table.seconds_left", { count: Math.ceil(left) });
        timer.style.setProperty("--left", String(Math.min(1, left / total)));
        timer.classList.toggle("low", left < 10);
        timer.hidden = false;
      } else {
        timer.hidden = true;
      }
    }
    const countdown = this.root.querySelector(".countdown");
    if (countdown && room.continue_at) {
      countdown.textContent = t("table.next_hand_in", { count: Math.max(0, Math.ceil(room.continue_at - now)) });
    }
  }
}

/** "▲SE": a face in a few characters (the back of a card in the hand; its title is in the
 * card's spoken name). */
function backShort(face) {
  const { color, kind } = parseFace(face);
  return `${symbolGlyph(color)}${kindShort(kind)}`;
}

export function symbolGlyph(color) {
  return { circle: "●", diamond: "◆", triangle: "▲", square: "■", wild: "★" }[symbolOf(color)] || "";
}

function launcherWords(launcher) {
  if (launcher.model === "random") return t("n.launcher.random", { count: launcher.empty_streak || 0 });
  if (launcher.model === "pattern") return t("launcher.pattern", { number: launcher.index || 0 });
  if (launcher.model === "scripted") return t("n.launcher.scripted", { count: launcher.presses || 0 });
  return t(`option.launcher.${launcher.model}`);
}

/** The question of the seat's open decision (docs/i18n.md: decision.<kind>). */
function promptMessage(obs, names, pending, side) {
  const decision = obs.decision;
  if (decision === "turn") return t(obs.launcher ? "decision.turn.launcher" : "decision.turn");
  if (decision === "stack") return t(obs.launcher ? "decision.stack.launcher" : "decision.stack", { total: obs.stack });
  if (decision === "play_or_keep") return pending.card ? t("decision.play_or_keep.card", { card: faceTitle(faceOf(pending.card, side)) }) : t("decision.play_or_keep");
  if (decision === "challenge") return t("decision.challenge", { by: names[pending.by], kind: t(`card.${pending.card}`), color: colorName(pending.color) });
  if (decision === "press_your_luck") {
    const done = (pending.discarded || []).length;
    return done ? t("n.decision.press_your_luck.discarded", { count: done }) : t("decision.press_your_luck");
  }
  if (decision === "choose_target" || decision === "discard_cards") return t(`decision.${decision}`, { kind: t(`card.${pending.card}`), count: pending.count || 1 });
  return t(`decision.${decision}`);
}

/** The label of a button that takes `action` (a parsed action of legal_actions). */
function actionLabel(action, obs, names, decision) {
  if ((action.verb === "draw" || action.verb === "press") && decision === "stack") return t(obs.launcher ? "n.action.press_all" : "n.action.draw_all", { count: obs.stack });
  if (action.verb === "trade") return t("action.trade.cards", { target: names[action.seat], cards: t("n.cards", { count: obs.hand_sizes[action.seat] }) });
  if (action.verb === "target") return t("action.target", { target: names[action.seat] });
  if (action.verb === "draw" && obs.options.draw_until_playable) return t("action.draw.until");
  return t(`action.${action.verb}`);
}
