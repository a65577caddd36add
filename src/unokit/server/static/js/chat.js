// The room's chat: lines of text and quick reactions, players' and spectators' apart (the
// server keeps spectators' lines of a live game from the players until it is over; a reader may
// hide either channel here). Every message is drawn as text, never as markup; a reaction also
// floats for a moment over its sender's seat.

import { clear, h, reducedMotion } from "./dom.js";
import { catalog } from "./cards.js";
import { errorText } from "./net.js";
import { t } from "./i18n.js";

/** How the quick reactions look (the server's catalogue lists them, in its order; their words
 * are the catalogue's reaction.<name>): a glyph, and whether the words show on the button. */
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

/** A reaction's words in the reader's language. */
function reactionWords(key) {
  return t(`reaction.${key}`);
}

/** The button of one quick reaction (the catalogue's order): its glyph, and its words where
 * they show; `send` is called on a click. `glyphOnly` leaves the words to the label (a compact
 * row, as over the table's hand). */
export function reactionButton(key, send, glyphOnly = false) {
  const reaction = REACTIONS[key] || { glyph: "" };
  const words = reaction.line && !glyphOnly;
  return h(`button.reaction${words ? ".line" : ""}`, {
    type: "button",
    dataset: { reaction: key, key: `react-${key}` },
    title: reactionWords(key),
    "aria-label": reactionWords(key),
    onclick: send,
  }, h("span", { "aria-hidden": "true" }, reaction.glyph), words ? ` ${reactionWords(key)}` : null);
}

/** Whether the reader at `seat` (null: a spectator) may not write in `room`'s chat now. */
export function mutedIn(room, seat) {
  return Boolean(seat === null || seat === undefined ? room.spectators_muted : (room.muted || []).includes(seat));
}

const MAX_LINES = 200;
const FLOAT_MS = 2600;

function shown(channel) {
  return localStorage.getItem(`unokit.chat.hide.${channel}`) !== "1";
}

export class ChatPanel {
  /** conn: the room's RoomConnection. The panel is this.element; put it anywhere on the page. */
  constructor(conn) {
    this.conn = conn;
    this.messages = [];
    this.room = null;
    this.log = h("ol.chat-log", { "aria-live": "polite", "aria-label": t("chat.messages") });
    this.note = h("p.chat-note", { role: "alert" });
    this.note.hidden = true;
    this.input = h("input#chat-text", { type: "text", name: "text", maxlength: "280", autocomplete: "off", "aria-describedby": "chat-hint" });
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
      return h("span.check", {}, box, h("label", { for: `chat-show-${channel}` }, channel === "players" ? t("chat.players") : t("chat.spectators")));
    }));
    this.element = h("section.chat", { "aria-labelledby": "chat-title", dataset: { region: "chat" } },
      h("h2#chat-title", {}, t("chat.title")),
      filters,
      this.log,
      this.note,
      this.reactions,
      form,
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
      let badge = button.querySelector(".chat-unread");
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

  /** A `chat` message from the server: the whole history (after every hello) or new lines. */
  receive(msg) {
    const known = new Map(msg.history ? [] : this.messages.map((m) => [m.n, m]));
    const fresh = [];
    for (const message of msg.messages) {
      if (!known.has(message.n)) fresh.push(message);
      known.set(message.n, message);
    }
    this.messages = [...known.values()].sort((a, b) => a.n - b.n).slice(-MAX_LINES);
    this.render();
    if (msg.history) return;
    fresh.filter((m) => m.reaction).forEach((m) => this.float(m));
    const mine = this.conn.seat === null || this.conn.seat === undefined ? null : this.conn.seat;
    const others = fresh.filter((m) => m.seat === null || m.seat !== mine);
    if (others.length && !this.inSight) {
      this.unread += others.length;
      this.showUnread();
    }
  }

  /** The server refused a message of ours (muted, too fast, too long): say why. */
  error(msg) {
    this.note.textContent = errorText(msg);
    this.note.hidden = false;
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { this.note.hidden = true; }, 6000);
  }

  /** The room changed: who is muted, and so whether this reader may write. */
  setRoom(room) {
    this.room = room;
    const muted = mutedIn(room, this.conn.seat);
    this.input.disabled = muted;
    this.reactions.querySelectorAll("button").forEach((b) => { b.disabled = muted; });
    this.input.placeholder = muted ? t("server.error.muted") : t("chat.placeholder");
  }

  render() {
    clear(this.log);
    for (const message of this.messages) {
      const who = message.name || (message.seat === null ? t("chat.a_spectator") : t("seat.numbered", { number: message.seat + 1 }));
      const line = h(`li.chat-line.from-${message.channel}`, { dataset: { n: String(message.n), seat: message.seat === null ? "" : String(message.seat) } },
        h("span.chat-who", {}, who, message.channel === "spectators" ? h("span.chat-channel", {}, " ", t("chat.watching")) : null),
        ": ");
      if (message.reaction) {
        const reaction = REACTIONS[message.reaction] || { glyph: "" };
        line.append(h("span.chat-reaction", {}, `${reaction.glyph} ${reactionWords(message.reaction)}`));
      } else {
        line.append(h("span.chat-text", {}, message.text)); // a text node: markup stays text
      }
      this.log.append(line);
    }
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** Show a reaction for a moment over its sender's seat (or over the chat for a spectator). */
  float(message) {
    const reaction = REACTIONS[message.reaction];
    if (!reaction) return;
    const seatNode = message.seat === null ? null
      : document.querySelector(`.table-root .seat[data-seat="${message.seat}"]`) || document.querySelector(`[data-seat-box="${message.seat}"]`);
    const anchor = seatNode || this.element;
    const box = anchor.getBoundingClientRect();
    const bubble = h("div.reaction-float", { role: "status", dataset: { seat: message.seat === null ? "" : String(message.seat) } },
      h("span.reaction-glyph", { "aria-hidden": "true" }, reaction.glyph),
      h("span.reaction-words", {}, t("chat.reaction_by", { name: message.name || t("chat.a_spectator"), reaction: reactionWords(message.reaction) })));
    bubble.style.left = `${Math.round(box.left + box.width / 2 + window.scrollX)}px`;
    bubble.style.top = `${Math.round(box.top + window.scrollY)}px`;
    if (!reducedMotion()) bubble.classList.add("rising");
    document.body.append(bubble);
    setTimeout(() => bubble.remove(), FLOAT_MS);
  }
}
