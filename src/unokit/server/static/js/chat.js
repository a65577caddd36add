// The room's chat: lines of text and quick reactions, players' and spectators' apart (the
// server keeps spectators' lines of a live game from the players until it is over; a reader may
// hide either channel here). Every message is drawn as text, never as markup; a reaction also
// floats for a moment over its sender's seat. Each reader may mute anyone for themselves (kept
// in this browser, by the name their messages go by in the room) and report a line, a name or
// a player's conduct to the server's host; in a room nobody hosts, players may quiet the
// spectators.

import { clear, h, reducedMotion } from "./dom.js";
import { catalog } from "./cards.js";
import { errorText, memory } from "./net.js";
import { runs } from "./features.js";
import { t } from "./i18n.js";

/** How the quick reactions look (the server's catalogue lists them, in its order; their words
 * are the catalogue's reaction.<name>): a glyph, and whether the words show on the button.
 * @type {Record<string, {glyph: string, line?: boolean}>}
 */
export const REACTIONS = {
  uno: { glyph: "⚡", line: true },
  nice: { glyph: "★", line: true },
  oops: { glyph: "⚠", line: true },
  gg: { glyph: "✌", line: true },
  hurry: { glyph: "☝", line: true },
  yes: { glyph: "✔" },
  laugh: { glyph: "😂" },
  wow: { glyph: "😮" },
  sad: { glyph: "😢" },
  heart: { glyph: "❤" },
};

/**
 * A reaction's words in the reader's language.
 * @param {string} key
 */
function reactionWords(key) {
  return t(`reaction.${key}`);
}

/** The button of one quick reaction (the catalogue's order): its glyph, and its words where
 * they show; `send` is called on a click. `glyphOnly` leaves the words to the label (a compact
 * row, as over the table's hand).
 * @param {string} key
 * @param {() => void} send
 * @param {boolean} [glyphOnly]
 * @returns {HTMLButtonElement}
 */
export function reactionButton(key, send, glyphOnly = false) {
  const reaction = REACTIONS[key] || { glyph: "" };
  const words = reaction.line && !glyphOnly;
  return h(`button.reaction${words ? ".line" : ""}`, {
    type: "button",
    dataset: { reaction: key, key: `react-${key}` },
    title: reactionWords(key),
    "aria-label": reactionWords(key),
    onclick: send,
  }, h("span", { "aria-hidden": "true" }, reaction.glyph), words ? h("span.reaction-label", {}, ` ${reactionWords(key)}`) : null);
}

/**
 * Whether the reader at `seat` (null: a spectator) may not write in `room`'s chat now.
 * @param {import("./types").Room} room
 * @param {number | null} seat
 * @returns {boolean}
 */
export function mutedIn(room, seat) {
  return Boolean(seat === null || seat === undefined ? room.spectators_muted : (room.muted || []).includes(seat));
}

const MAX_LINES = 200;
const FLOAT_MS = 2600;

/** @param {string} channel */
function shown(channel) {
  return localStorage.getItem(`unokit.chat.hide.${channel}`) !== "1";
}

export class ChatPanel {
  /**
   * conn: the room's RoomConnection. The panel is this.element; put it anywhere on the page.
   * @param {import("./net.js").RoomConnection} conn
   */
  constructor(conn) {
    this.conn = conn;
    /** @type {import("./types").ChatLine[]} */
    this.messages = [];
    /** @type {import("./types").Room | null} */
    this.room = null;
    /** @type {number | null} the chat line whose menu is open */
    this.openMenu = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.noteTimer = undefined;
    this.log = h("ol.chat-log", { "aria-live": "polite", "aria-label": t("chat.messages") });
    // The open line's menu, under the lines (not among them: the lines scroll in a box that may
    // be low, a phone's drawer, and a menu there was cut off).
    this.menuSlot = h("div.chat-menu-slot");
    this.note = h("p.chat-note", { role: "alert" });
    this.note.hidden = true;
    this.input = h("input#chat-text",
      { type: "text", name: "text", maxlength: "280", autocomplete: "off", "aria-describedby": "chat-hint" });
    const form = h("form.chat-form", {},
      h("label.visually-hidden", { for: "chat-text" }, t("chat.message")),
      this.input,
      h("button#chat-send", { type: "submit" }, t("chat.send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.conn.chat({ text })) this.input.value = "";
    });
    this.reactions = h("div.reactions", { role: "group", "aria-label": t("chat.reactions") },
      catalog().reactions.map((key) => reactionButton(key, () => this.conn.chat({ reaction: key }))));
    const filters = h("div.chat-filters", {}, ["players", "spectators"].map((channel) => {
      const box = h("input", { type: "checkbox", id: `chat-show-${channel}`, checked: shown(channel) || undefined });
      box.addEventListener("change", () => {
        localStorage.setItem(`unokit.chat.hide.${channel}`, box.checked ? "0" : "1");
        this.element.classList.toggle(`hide-${channel}`, !box.checked);
      });
      return h("span.check", {}, box,
        h("label", { for: `chat-show-${channel}` }, channel === "players" ? t("chat.players") : t("chat.spectators")));
    }));
    this.people = h("details.chat-people", {}, h("summary", {}, t("chat.people")));
    this.mutedList = h("p.chat-muted");
    this.mutedList.hidden = true;
    this.element = h("section.chat", { "aria-labelledby": "chat-title", dataset: { region: "chat" } },
      h("h2#chat-title", {}, t("chat.title")),
      filters,
      this.mutedList,
      this.log,
      this.menuSlot,
      this.note,
      this.reactions,
      form,
      this.people,
      h("p.hint#chat-hint", {}, t("chat.hint")));
    for (const channel of ["players", "spectators"]) this.element.classList.toggle(`hide-${channel}`, !shown(channel));
    // Lines that arrive while the chat is out of sight (a phone's closed drawer) are counted
    // on the buttons that open it, until it is seen.
    this.unread = 0;
    this.inSight = true;
    this.sight = new IntersectionObserver((entries) => {
      this.inSight = entries.some((entry) => entry.isIntersecting);
      if (this.inSight) this.markRead();
    });
    this.sight.observe(this.log);
  }

  /** Stop watching (the room page is left). */
  destroy() {
    this.sight.disconnect();
    this.unread = 0;
    this.showUnread();
  }

  markRead() {
    if (!this.unread) return;
    this.unread = 0;
    this.showUnread();
  }

  /** The count of unread lines on every button that opens the drawer holding the chat. */
  showUnread() {
    for (const button of document.querySelectorAll("[data-toggles='drawer']")) {
      let badge = /** @type {HTMLElement | null} */ (button.querySelector(".chat-unread"));
      if (!this.unread) {
        if (badge) badge.remove();
        continue;
      }
      if (!badge) {
        badge = h("span.chat-unread", { dataset: { count: "" } });
        button.append(badge);
      }
      badge.textContent = String(Math.min(this.unread, 99));
      badge.dataset.count = String(this.unread);
      badge.setAttribute("aria-label", t("n.chat.unread", { count: this.unread }));
    }
  }

  /**
   * A `chat` message from the server: the whole history (after every hello) or new lines.
   * @param {import("./types").ChatMessages} msg
   */
  receive(msg) {
    /** @type {Map<number, import("./types").ChatLine>} */
    const known = new Map(msg.history ? [] : this.messages.map((m) => [m.n, m]));
    /** @type {import("./types").ChatLine[]} */
    const fresh = [];
    for (const message of msg.messages) {
      if (!known.has(message.n)) fresh.push(message);
      known.set(message.n, message);
    }
    this.messages = [...known.values()].sort((a, b) => a.n - b.n).slice(-MAX_LINES);
    this.render();
    if (msg.history) return;
    const heard = fresh.filter((m) => !this.isMuted(m.from));
    heard.filter((m) => m.reaction).forEach((m) => this.float(m));
    const mine = this.conn.seat === null || this.conn.seat === undefined ? null : this.conn.seat;
    const others = heard.filter((m) => m.seat === null || m.seat !== mine);
    if (others.length && !this.inSight) {
      this.unread += others.length;
      this.showUnread();
    }
  }

  /**
   * The server refused a message of ours (muted, too fast, too long): say why.
   * @param {import("./types").ErrorMessage} msg
   */
  error(msg) {
    this.say(errorText(msg));
  }

  /**
   * A short note under the chat's lines, for a few seconds (`done`: good news, not a refusal).
   * @param {string} text
   * @param {boolean} [done]
   */
  say(text, done = false) {
    this.note.textContent = text;
    this.note.classList.toggle("done", done);
    this.note.hidden = false;
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { this.note.hidden = true; }, 6000);
  }

  /**
   * The room changed: who is muted, and so whether this reader may write; who sits where.
   * @param {import("./types").Room} room
   */
  setRoom(room) {
    this.room = room;
    const muted = mutedIn(room, this.conn.seat);
    this.input.disabled = muted;
    this.reactions.querySelectorAll("button").forEach((b) => { b.disabled = muted; });
    this.input.placeholder = muted ? t("server.error.muted") : t("chat.placeholder");
    this.renderPeople();
  }

  // ------------------------------------------------------------------ muting and reporting
  /**
   * Whether this reader muted the sender `from` for themselves.
   * @param {string | null | undefined} from
   */
  isMuted(from) {
    return Boolean(from) && Object.prototype.hasOwnProperty.call(memory.muted(this.conn.code), /** @type {string} */ (from));
  }

  /**
   * Mute (or unmute) the sender `from`, last seen as `name`, for this reader only.
   * @param {string} from
   * @param {string | null} name
   * @param {boolean} muted
   */
  setMuted(from, name, muted) {
    const list = memory.muted(this.conn.code);
    if (muted) list[from] = name || "";
    else delete list[from];
    memory.setMuted(this.conn.code, list);
    this.render();
    this.renderPeople();
  }

  /**
   * Report something (`fields` as RoomConnection.report takes them); the note says how it went.
   * @param {Parameters<import("./net.js").RoomConnection["report"]>[0]} fields
   */
  report(fields) {
    const sent = this.conn.report(fields,
      (msg) => this.say(msg.type === "error" ? errorText(msg) : t("chat.reported"), msg.type !== "error"));
    if (!sent) this.say(t("net.lost", { seconds: 1 }));
  }

  /** The buttons that mute, unmute and report one person (`from`, named `name`); `about` the
   * fields that name them in a report of their name or conduct. A server that keeps no reports
   * (one without moderation) is offered none.
   * @param {string} from
   * @param {string | null} name
   * @param {{seat?: number, from?: string}} about
   * @returns {HTMLButtonElement[]}
   */
  personActions(from, name, about) {
    const muted = this.isMuted(from);
    const mute = h("button.chat-mute",
      { type: "button", dataset: { verb: muted ? "unmute-for-me" : "mute-for-me", from },
      onclick: () => this.setMuted(from, name, !muted) },
      muted ? t("chat.unmute_for_me", { name }) : t("chat.mute_for_me", { name }));
    if (!runs("moderation")) return [mute];
    return [
      mute,
      h("button.chat-report", { type: "button", dataset: { verb: "report-name" }, onclick: () => this.report({ about: "name", ...about }) },
        t("chat.report_name", { name })),
      h("button.chat-report",
        { type: "button", dataset: { verb: "report-conduct" }, onclick: () => this.report({ about: "conduct", ...about }) },
        t("chat.report_conduct", { name })),
    ];
  }

  /** The people at the table (and, in a room with no host, quieting the spectators). */
  renderPeople() {
    const room = this.room;
    if (!room) return;
    const open = this.people.open;
    clear(this.people).append(h("summary", {}, t("chat.people")));
    this.people.open = open;
    const list = h("ul.chat-people-list");
    for (const seat of room.seats) {
      if (seat.kind !== "human" || !seat.from || seat.seat === this.conn.seat) continue;
      list.append(h("li", { dataset: { seat: String(seat.seat) } }, h("span.chat-who", {}, seat.name || ""), " ",
        ...this.personActions(seat.from, seat.name, { seat: seat.seat })));
    }
    this.people.append(list.childNodes.length ? list : h("p.hint", {}, t("chat.nobody_else")));
    if (room.hosted === false && this.conn.seat !== null && this.conn.seat !== undefined) {
      const quiet = Boolean(room.spectators_muted);
      this.people.append(h("button.chat-quiet",
        { type: "button", dataset: { verb: quiet ? "let-spectators-talk" : "quiet-spectators" },
        onclick: () => this.conn.quiet(!quiet, (msg) => { if (msg.type === "error") this.error(msg); }) },
        quiet ? t("chat.let_spectators_talk") : t("chat.quiet_spectators")));
    }
    const muted = memory.muted(this.conn.code);
    clear(this.mutedList);
    this.mutedList.hidden = !Object.keys(muted).length;
    if (!this.mutedList.hidden) {
      this.mutedList.append(t("chat.muted_for_you"), " ");
      for (const [from, name] of Object.entries(muted)) {
        this.mutedList.append(h("button.chat-unmute",
            { type: "button", dataset: { from }, onclick: () => this.setMuted(from, name, false) },
            t("chat.unmute_for_me", { name: name || t("chat.a_spectator") })),
          " ");
      }
    }
  }

  render() {
    const kept = this.log.scrollTop;
    clear(this.log);
    clear(this.menuSlot);
    let menuOpen = false;
    for (const message of this.messages) {
      if (this.isMuted(message.from)) continue; // muted by this reader: not shown here
      const who = message.name || (message.seat === null ? t("chat.a_spectator") : t("seat.numbered", { number: message.seat + 1 }));
      const channel = message.channel === "spectators" ? h("span.chat-channel", {}, " ", t("chat.watching")) : null;
      // Another person's name opens the line's menu (mute them for me, report), under the line.
      const others = Boolean(message.from) && message.from !== this.conn.from;
      const name = others
        ? h("button.chat-who",
          { type: "button", "aria-expanded": String(this.openMenu === message.n), "aria-controls": "chat-menu",
            "aria-label": t("chat.more", { name: who }),
            title: t("chat.more", { name: who }), onclick: () => this.toggleMenu(message.n) },
          who)
        : h("span.chat-who", {}, who);
      const opened = others && this.openMenu === message.n;
      const line = h(`li.chat-line.from-${message.channel}${opened ? ".menu-open" : ""}`,
        { dataset: { n: String(message.n), seat: message.seat === null ? "" : String(message.seat) } },
        name, channel, ": ");
      if (message.reaction) {
        const reaction = REACTIONS[message.reaction] || { glyph: "" };
        line.append(h("span.chat-reaction", {}, `${reaction.glyph} ${reactionWords(message.reaction)}`));
      } else {
        line.append(h("span.chat-text", {}, message.text)); // a text node: markup stays text
      }
      this.log.append(line);
      if (opened) {
        this.menuSlot.append(this.lineMenu(message, who));
        menuOpen = true;
      }
    }
    // The newest line in view, unless a menu is open for a line the reader scrolled to.
    this.log.scrollTop = menuOpen ? kept : this.log.scrollHeight;
  }

  /**
   * Open line `n`'s menu (closing any other), or close it.
   * @param {number} n
   */
  toggleMenu(n) {
    this.openMenu = this.openMenu === n ? null : n;
    this.render();
    const menu = this.menuSlot.querySelector(".chat-menu");
    const first = /** @type {HTMLElement | null} */ (this.menuSlot.querySelector(".chat-menu button"));
    if (menu) menu.scrollIntoView({ block: "nearest" });
    if (first) first.focus({ preventScroll: true });
  }

  /** A line's menu, under the lines, its sender named: report the line, mute its sender for me,
   * report their name or conduct. It exists only while open, so a line's text is its sender and
   * its words alone.
   * @param {import("./types").ChatLine} message
   * @param {string} who the sender's name as the line shows it
   */
  lineMenu(message, who) {
    const about = message.seat === null ? { from: message.from } : { seat: message.seat };
    const done = () => { this.openMenu = null; };
    const actions = [
      ...(runs("moderation") ? [h("button.chat-report",
        { type: "button", dataset: { verb: "report-line" },
          onclick: () => { done(); this.report({ about: "chat", message: message.n }); this.render(); } },
        t("chat.report_line"))] : []),
      ...this.personActions(message.from, who, about),
    ];
    return h("div.chat-menu#chat-menu", { role: "group", "aria-labelledby": "chat-menu-title", dataset: { for: String(message.n) } },
      h("p.chat-menu-title#chat-menu-title", {}, t("chat.more", { name: who })), ...actions);
  }

  /**
   * Show a reaction for a moment over its sender's seat (or over the chat for a spectator).
   * @param {import("./types").ChatLine} message a reaction
   */
  float(message) {
    const reaction = REACTIONS[/** @type {string} */ (message.reaction)];
    if (!reaction || this.isMuted(message.from)) return;
    const seatNode = message.seat === null ? null
      : document.querySelector(`.table-root .seat[data-seat="${message.seat}"]`)
        || document.querySelector(`[data-seat-box="${message.seat}"]`);
    const anchor = seatNode || this.element;
    const box = anchor.getBoundingClientRect();
    const bubble = h("div.reaction-float", { role: "status", dataset: { seat: message.seat === null ? "" : String(message.seat) } },
      h("span.reaction-glyph", { "aria-hidden": "true" }, reaction.glyph),
      h("span.reaction-words", {},
        t("chat.reaction_by",
          { name: message.name || t("chat.a_spectator"), reaction: reactionWords(/** @type {string} */ (message.reaction)) })));
    bubble.style.left = `${Math.round(box.left + box.width / 2 + window.scrollX)}px`;
    bubble.style.top = `${Math.round(box.top + window.scrollY)}px`;
    if (!reducedMotion()) bubble.classList.add("rising");
    document.body.append(bubble);
    setTimeout(() => bubble.remove(), FLOAT_MS);
  }
}
