// The game table, laid out like a card table on every screen: the other players around it, the
// piles, the colour in play, the direction, the side and the last move in words at the centre,
// your decision just above your hand (beside it on a phone held sideways), your name, count and
// points with your buttons, your hand pinned at the bottom as a fan, and the log and the scores
// in a drawer. Regions carry data-region="table" | "piles" | "last-move" | "prompt" | "self" |
// "hand" | "log" for tests and assistive technology. Nothing here decides a rule: a card is
// playable because an action that plays it is in legal_actions, and every action sent is one of
// them. A replay draws the same table read-only (`readOnly`): nothing to act on.

import { avatarSvg } from "./avatars.js";
import { cardNode, catalog, colorTitle, colorWords, faceOf, faceOrder, faceTitle, faceValueOrder, parseFace, symbolGlyph, useVariant }
  from "./cards.js";
import { clear, h, shortName } from "./dom.js";
import { gameOverDialog, roundSummaryPanel, summaryTable } from "./dialogs.js";
import { mutedIn, reactionButton } from "./chat.js";
import { animateEvents, snapshot } from "./motion.js";
import { lastMoveWords } from "./lastmove.js";
import { backsBox, layoutTable } from "./seats.js";
import { actionLabel, colorLabel, groupActions, promptMessage, waitingWords } from "./prompt.js";
import { playSound } from "./sound.js";
import { errorText } from "./net.js";
import { N_, lang, languageSwitcher, number, percent, say, t } from "./i18n.js";
import { botStrength, rulesOn } from "./options.js";
import { announce, announceUrgent } from "./announce.js";
import { keySettings, tableCommand } from "./shortcuts.js";
import { handWords, movesWords, pileWords, seatWords, tableWords } from "./readout.js";
import { MoveBox } from "./textmode.js";
import { typedMoves } from "./typed.js";
import { runs } from "./features.js";

const SORT_KEY = "unokit.sort";

/** What can take the focus inside a region of the table. */
const FOCUSABLE = "button:not([disabled]), input:not([disabled]), select:not([disabled]), a[href], [tabindex='0']";

/**
 * The side in play (0 light, 1 dark).
 * @param {import("./types").Observation} obs
 * @param {import("./types").VariantInfo} variant
 * @returns {number}
 */
function sideIndex(obs, variant) {
  const index = variant.side_names.indexOf(obs.side);
  return index < 0 ? 0 : index;
}

/** The marks a seat may carry, in the order the help's legend explains them. */
export const SEAT_MARKS = ["host", "dealer", "uno", "no_uno"];

/** A seat's mark (one of SEAT_MARKS), drawn the same at the table and in the help: the host's
 * and the dealer's over the avatar's corner, a card left with UNO said or not in place of the
 * card count.
 * @param {string} kind
 * @returns {HTMLElement}
 */
export function seatMark(kind) {
  if (kind === "host") return h("span.badge.host", { title: t("room.host") }, "♛");
  if (kind === "dealer") return h("span.badge.dealer", { title: t("seat.dealer") }, t("seat.dealer_badge"));
  if (kind === "no_uno") return h("span.count.no-uno", { title: t("seat.no_uno") }, t("seat.no_uno_badge"));
  return h("span.count.uno", { title: t("table.uno") }, t("table.uno"));
}

/** The decision's choices as a hint weighs them: a play with or without UNO is one choice;
 * catching and late UNO calls are none.
 * @param {import("./types").Observation} obs
 */
function choiceCount(obs) {
  const plain = (obs.legal_actions || []).filter((a) => !a.startsWith("catch") && a !== "uno");
  return new Set(plain.map((a) => a.replace(/ uno$/, ""))).size;
}

/**
 * @typedef {Object} TableHooks what the page around the table gives it
 * @property {(text: string) => void} [onTurn] the reader's decision came (its question)
 * @property {() => void} [onWin]
 * @property {boolean} [readOnly] a replay: nothing to act on
 * @property {() => HTMLElement} [controls] a replay's controls, in the decision's place
 */

/**
 * @typedef {Object} TableNote a short notice over the table
 * @property {string} kind one notice of each kind at a time
 * @property {string} text
 * @property {string[] | null} cards the cards it shows
 * @property {string | null} action what its button does ("scores")
 * @property {number | null} until when it goes (ms since 1970; null: it stays)
 */

/**
 * @typedef {Object} Hint a hint at the reader's decision (askHint), while asked and once answered
 * @property {number} step the game step it is for
 * @property {boolean} [waiting]
 * @property {import("./types").Line} [line] the suggested action in words
 * @property {number} [chance]
 * @property {string} [error]
 */

export class TableView {
  /** root: the element to draw into; conn: the RoomConnection; code: the room code; hooks:
   * {onTurn(), onWin(), onDrawerToggle()} for the page around the table.
   * @param {HTMLElement} root
   * @param {import("./net.js").RoomConnection} conn
   * @param {string} code
   * @param {TableHooks} [hooks]
   */
  constructor(root, conn, code, hooks = {}) {
    this.root = root;
    this.conn = conn;
    this.code = code;
    this.hooks = hooks;
    this.readOnly = Boolean(hooks.readOnly); // a replay: the table as it was, nothing to act on
    /** @type {import("./types").State | null} */
    this.state = null;
    // The room: update() (or updateRoom()) gives it before the table draws anything.
    /** @type {import("./types").Room} */
    this.room = /** @type {import("./types").Room} */ (/** @type {unknown} */ (null));
    /** @type {number | null} when the host's pause ends by itself (ms since 1970), while paused */
    this.pauseEndsAt = null;
    /** @type {{line: import("./types").Line, standin: boolean}[]} the game's lines so far */
    this.log = [];
    /** @type {number | null} the game the log belongs to */
    this.logGame = null;
    /** @type {import("./types").Line[]} the lines of the last move, for the caption beside the piles */
    this.lastMove = [];
    this.unoArmed = false;
    /** @type {{prompt: string, actions: import("./prompt.js").ParsedAction[]} | null} a card waiting for its colour */
    this.choosing = null;
    /** @type {import("./types").RoundSummary | null} */
    this.summary = JSON.parse(sessionStorage.getItem(`unokit.summary.${code}`) || "null");
    this.summaryShown = false; // the round summary panel, while the next hand waits
    this.summaryFull = false; // the summary lists every card left (on request)
    /** @type {TableNote[]} short notices over the table */
    this.notes = [];
    /** @type {string | null} */
    this.error = null;
    this.sort = localStorage.getItem(SORT_KEY) === "value" ? "value" : "color";
    this.drawerTab = "log";
    this.wasMyDecision = false;
    /** @type {number | null} */
    this.celebrated = null;
    /** @type {number | null} the game whose end screen the reader closed */
    this.overClosed = null;
    /** @type {number | null} the game whose end screen took the focus (focusEnd) */
    this.endFocused = null;
    this.standinSeen = 0; // how many of the stand-in's moves for this reader were waved away
    this.backAsked = false; // "I'm back" is on its way: the moves made meanwhile are waved away too
    this.reacting = false; // the quick reactions are open over the hand
    // The second click of a double-click lands on whatever the first one put under the pointer
    // (draw, then "keep" in its place): a move is one click, so the extra clicks are dropped.
    root.addEventListener("click", (event) => {
      const target = /** @type {Element} a click's */ (event.target);
      if (event.detail > 1 && target.closest("[data-action], [data-verb], .hand-card, .uno-button")) {
        event.stopPropagation();
        event.preventDefault();
      }
    }, true);
    this.timer = setInterval(() => this.tick(), 250);
    /** @param {KeyboardEvent} event */
    this.keyHandler = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keyHandler);
    // A tap anywhere but on the quick reactions closes them, and still does what it tapped: the
    // table is not drawn again under the pointer (that would lose the click).
    /** @param {PointerEvent} event */
    this.outsideHandler = (event) => {
      if (!this.reacting || (event.target instanceof Element && event.target.closest(".react-box"))) return;
      this.reacting = false;
      const pop = this.root.querySelector(".react-pop");
      if (pop) pop.remove();
      const toggle = this.root.querySelector(".react-toggle");
      if (toggle) toggle.setAttribute("aria-expanded", "false");
    };
    document.addEventListener("pointerdown", this.outsideHandler);
    this.resize = new ResizeObserver(() => {
      this.layoutSeats();
      this.layoutHand();
    });
    this.resize.observe(root);
    /** @type {number | undefined} */
    this.pressTimer = undefined;
    /** @type {HTMLElement | null} the room's chat panel, shown in the drawer (set by the room page) */
    this.chat = null;
    /** @type {(() => HTMLElement[]) | null} the play-again area of a finished game (set by the room page) */
    this.playAgain = null;
    /** @type {(() => HTMLElement | null) | null} the host's seat controls (set by the room page) */
    this.hostControls = null;
    /** @type {{game: number, count: number} | null} how many lines of this game's log were said (null: none heard yet) */
    this.announced = null;
    /** @type {Hint | null} */
    this.hint = null;
    this.urgentSaid = ""; // the last decision or chance said at once, so that it is said once
    /** @type {ReturnType<TableView["focusMark"]>} */
    this.lastFocus = null; // where the focus was in the table (focusMark), to put it back after a redraw
    this.focusHandler = () => { this.lastFocus = this.focusMark(); };
    root.addEventListener("focusin", this.focusHandler);
    this.settingsHandler = () => this.render();
    document.addEventListener("unokit:keys", this.settingsHandler);
    this.moveBox = new MoveBox(() => typedMoves(this), (words) => announceUrgent(words));
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keyHandler);
    document.removeEventListener("pointerdown", this.outsideHandler);
    document.removeEventListener("unokit:keys", this.settingsHandler);
    this.resize.disconnect();
  }

  get variant() {
    return catalog().variants[this.room.variant];
  }

  get me() {
    const seat = this.state ? this.state.seat : null;
    return seat === undefined ? null : seat;
  }

  /** Seat names as everyone reads them; your own seat is "You". */
  names() {
    return this.room.seats.map((s, i) => (i === this.me ? t("table.you") : s.name || t("seat.numbered", { number: i + 1 })));
  }

  /** The seats' own names (yours too), for the scores and the summaries. */
  seatNames() {
    return this.room.seats.map((s, i) => s.name || t("seat.numbered", { number: i + 1 }));
  }

  /**
   * Draw a new state of the room.
   * @param {import("./types").State} state
   */
  update(state) {
    const previous = this.state;
    this.state = state;
    this.room = state.room;
    this.notePauseEnd(previous);
    this.noteStandin();
    const obs = state.observation;
    const prevObs = previous && previous.observation;
    const me = this.me;
    this.takeLines(state, me);
    // The next deal is on the table when a pause between hands ends, a new game starts, or
    // (without a pause) a hand ends: whatever belonged to the last hand gives way to it.
    const phase = this.room.phase;
    const prevPhase = previous ? previous.room.phase : null;
    const newDeal = Boolean(previous && obs && prevObs && phase === "playing"
      && (prevPhase !== "playing" || this.room.game_no !== previous.room.game_no || obs.round !== prevObs.round));
    if (newDeal) {
      this.notes = this.notes.filter((n) => n.kind === "round");
      this.choosing = null;
    }
    if (state.summary) {
      this.summary = state.summary;
      sessionStorage.setItem(`unokit.summary.${this.code}`, JSON.stringify(state.summary));
      sessionStorage.setItem(`unokit.summary-at.${this.code}`, `${this.room.game_no}:${state.game_step}`);
      if (phase === "playing") this.note("round", summaryWords(state.summary, this.seatNames(), me), { action: "scores" });
    }
    // A page opened between hands (a reload) shows the summary this tab kept of the hand that
    // has just ended (told at this game and step: nothing moves between hands), as the page
    // that saw it end does.
    const keptNow = !previous && Boolean(this.summary)
      && sessionStorage.getItem(`unokit.summary-at.${this.code}`) === `${this.room.game_no}:${state.game_step}`;
    this.summaryShown = phase === "hand_over"
      && (Boolean(state.summary) || keptNow || (this.summaryShown && prevPhase === "hand_over"));
    for (const event of state.events || []) {
      if (event.type === "challenge" && event.revealed && (event.seat === me || event.target === me)) {
        const revealed = /** @type {string[]} a challenge's: the challenged hand */ (event.revealed);
        // Your own hand is "your hand", never "You's hand" (the line's reader form).
        const key = event.success ? N_("table.revealed_succeeded") : N_("table.revealed_failed");
        const text = say({ key, params: { player: event.target } }, this.names(), me);
        this.note("challenge", text, { cards: revealed, seconds: 10 });
        // Said with the cards the note shows, by their names.
        const side = obs ? sideIndex(obs, this.variant) : 0;
        announce(`${text} ${revealed.map((card) => faceTitle(faceOf(card, side))).join(t("list.separator"))}`);
      }
    }
    if (!previous || previous.version !== state.version) {
      this.choosing = null;
      this.error = null;
    }
    if (obs && !obs.legal_actions.some((a) => a.endsWith(" uno"))) this.unoArmed = false;
    const before = this.root.isConnected ? snapshot(this.root) : null;
    this.render();
    animateEvents(this.root, before, state.events || [], me, state.version);
    this.sounds(state.events || [], obs);
    this.sayUrgent(obs);
  }

  /**
   * Say at once what cannot wait: a decision that comes to the reader (its question), a player
   * the reader may catch, a card the reader may jump in with, a UNO the reader forgot. Each is
   * said once, when it comes.
   * @param {import("./types").Observation | null} obs the observation
   */
  sayUrgent(obs) {
    if (!obs || this.readOnly || this.me === null) return;
    const said = [];
    if (this.myDecision()) said.push(`${/** @type {import("./types").State} */ (this.state).version}:${this.promptText()}`);
    const { other } = groupActions(obs);
    const names = this.names();
    const chances = other.filter((a) => a.verb === "catch").map((a) => t("read.may_catch",
      { player: names[/** @type {number} */ (a.seat)] }));
    if (obs.legal_actions.some((a) => a === "uno")) chances.push(t("read.forgot_uno"));
    const jumps = this.myDecision() ? [] : [...groupActions(obs).byCard.keys()];
    if (jumps.length) chances.push(t("read.may_jump"));
    const key = [...said, ...chances].join("|");
    if (!key || key === this.urgentSaid) {
      this.urgentSaid = key;
      return;
    }
    this.urgentSaid = key;
    // The reader's turn comes with what it is played on (the top card and the colour).
    const turn = this.myDecision() ? [this.promptText(), ...(obs.decision === "turn" ? pileWords(this.seen()) : [])] : [];
    const words = [...turn, ...chances].filter(Boolean);
    announceUrgent(words.join(". ").replace(/([.!?:。！？：…])\. /g, "$1 "));
  }

  /**
   * Keep the game's log and the last move from a state: the whole log that answers a hello
   * replaces what was kept (a reload, a reconnect, a change of language); the lines of a move
   * are added to it. The server says what happened as lines (codes with parameters); each is
   * said in the reader's language when drawn. A stand-in bot's move for this reader is marked.
   * @param {import("./types").State} state a state message
   * @param {number|null} me the reader's seat
   */
  takeLines(state, me) {
    /** @param {number | null | undefined} seat */
    const mine = (seat) => seat !== undefined && seat !== null && seat === me;
    if (this.logGame !== state.room.game_no) {
      this.log = [];
      this.lastMove = [];
      this.logGame = state.room.game_no;
    }
    if (state.log) {
      this.log = state.log.flatMap((group) => group.lines.map((line) => ({ line, standin: mine(group.standin) })));
      const last = state.log[state.log.length - 1];
      this.lastMove = last ? last.lines : [];
    }
    if (state.lines && state.lines.length) {
      const standin = mine(state.standin);
      this.log.push(...state.lines.map((line) => ({ line, standin })));
      this.lastMove = state.lines;
    }
    this.sayNewLines(state);
  }

  /**
   * Say every line of the log once, politely, in the log's words: none of the history a page
   * gets when it comes to the table, and after a reconnect only the lines it had not said.
   * @param {import("./types").State} state a state message
   */
  sayNewLines(state) {
    if (this.readOnly) return;
    const game = state.room.game_no;
    if (this.announced === null || this.announced.game !== game) {
      const fresh = this.announced !== null || !state.log;
      this.announced = { game, count: fresh ? 0 : this.log.length };
    }
    if (this.log.length < this.announced.count) this.announced.count = this.log.length;
    const names = this.names();
    for (const entry of this.log.slice(this.announced.count)) {
      const words = say(entry.line, names, this.me);
      announce(entry.standin ? `${words} (${t("table.log_standin")})` : words);
    }
    this.announced.count = this.log.length;
  }

  /**
   * Draw the room's news (its seats, its phase) over the last state.
   * @param {import("./types").Room} room
   */
  updateRoom(room) {
    this.room = room;
    this.noteStandin();
    if (this.state) this.state = { ...this.state, room };
    this.render();
  }

  /** @param {string} message */
  showError(message) {
    this.error = message;
    this.render();
    announceUrgent(message);
  }

  /**
   * A short notice over the table (replacing one of the same kind).
   * @param {string} kind
   * @param {string} text
   * @param {{cards?: string[] | null, seconds?: number, action?: string | null}} [more]
   */
  note(kind, text, { cards = null, seconds = 8, action = null } = {}) {
    this.notes = this.notes.filter((n) => n.kind !== kind);
    this.notes.push({ kind, text, cards, action, until: seconds ? Date.now() + seconds * 1000 : null });
  }

  /**
   * Hold the table's controls while a request is unanswered.
   * @param {boolean} busy
   */
  setBusy(busy) {
    this.root.classList.toggle("busy", busy);
    this.root.querySelectorAll(/** @type {"button"} */ ("[data-action], .hand-card.playable, .uno-button")).forEach((b) => {
      b.disabled = busy || b.dataset.off === "true";
    });
  }

  /** @param {string} text an action of legal_actions */
  act(text) {
    if (!this.conn.act(text)) return;
    this.choosing = null;
    this.unoArmed = false;
  }

  myDecision() {
    const obs = this.state && this.state.observation;
    if (this.readOnly || !obs || this.me === null) return false;
    return obs.to_act === this.me && obs.legal_actions.length > 0 && this.room.phase === "playing" && !this.room.paused;
  }

  /**
   * More time at the reader's turn (docs/server.md, "More time and the host's pause"): the
   * button while the turn's timer runs, with the times left this game; null when no timer runs.
   * @returns {HTMLElement|null}
   */
  moreTimeButton() {
    const room = this.room;
    const more = room.more_time;
    if (!this.myDecision() || !room.deadline || !more || this.me === null) return null;
    const left = more.most - (more.used[this.me] || 0);
    return h("button.more-time#more-time", {
      type: "button",
      disabled: left <= 0 || undefined,
      dataset: { verb: "more_time", key: "more-time", off: left <= 0 ? "true" : "false" },
      onclick: () => this.conn.moreTime(),
    }, t("table.more_time", { seconds: more.seconds, number: left }));
  }

  /**
   * The host's pause (docs/server.md): a button that pauses the table or lets it go on, for the
   * room's host while a game is played; null for anyone else.
   * @returns {HTMLElement|null}
   */
  pauseButton() {
    const room = this.room;
    if (this.readOnly || !this.conn.isHost || !["playing", "hand_over"].includes(room.phase)) return null;
    const paused = Boolean(room.paused);
    return h("button.pause-table#pause-table", {
      type: "button",
      "aria-pressed": paused ? "true" : "false",
      dataset: { verb: paused ? "resume" : "pause", key: "pause-table" },
      onclick: () => this.conn.host(paused ? "resume" : "pause"),
    }, paused ? t("table.resume") : t("table.pause"));
  }

  /**
   * When the host's pause ends by itself (R7: the paused time of a game and of a hand is
   * limited), as this device's clock reads it: the room tells how many seconds are left
   * (`pause_left`) in each state, taken when a state of a new step arrives.
   * @param {import("./types").State | null} previous
   */
  notePauseEnd(previous) {
    const room = this.room;
    if (!room.paused || typeof room.pause_left !== "number") {
      this.pauseEndsAt = null;
    } else if (this.pauseEndsAt === null || !previous || previous.room.version !== room.version) {
      this.pauseEndsAt = Date.now() + room.pause_left * 1000;
    }
  }

  /**
   * Who paused the table and when it goes on by itself, in words ("Ann paused the game. It goes
   * on by itself at 20:45."), or "" when it is not paused.
   */
  pausedWords() {
    const room = this.room;
    if (!room.paused) return "";
    const by = room.paused_by;
    const who = by === null || by === undefined ? t("room.paused")
      : say({ key: N_("room.paused_by"), params: { player: by } }, this.names(), this.me);
    if (this.pauseEndsAt === null) return who;
    const time = new Date(this.pauseEndsAt).toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });
    return `${who} ${t("room.pause_ends_at", { time })}`;
  }

  // ------------------------------------------------------------------ sound
  /**
   * @param {import("./types").GameEvent[]} events
   * @param {import("./types").Observation | null} obs
   */
  sounds(events, obs) {
    const me = this.me;
    for (const event of events) {
      if (event.type === "play" || event.type === "discard") playSound("play");
      else if (event.type === "draw" || event.type === "deal") {
        if (event.seat === me || event.type === "draw") playSound("draw");
      } else if (event.type === "press") playSound(event.fired ? "fire" : "press");
      else if (event.type === "uno") playSound("uno");
      else if (event.type === "catch") playSound("catch");
      else if (event.type === "flip") playSound("flip");
      else if (event.type === "game_end" && me !== null) playSound(/** @type {number[]} */ (event.winners).includes(me) ? "win" : "lose");
    }
    const mine = this.myDecision();
    if (mine && !this.wasMyDecision) {
      playSound("turn");
      if (this.hooks.onTurn) this.hooks.onTurn(this.promptText());
    }
    this.wasMyDecision = mine;
    if (obs && obs.over && this.hooks.onWin && this.celebrated !== this.room.game_no) {
      this.celebrated = this.room.game_no;
    }
  }

  promptText() {
    const node = this.root.querySelector('[data-region="prompt"] .message');
    return node ? node.textContent : "";
  }

  // ------------------------------------------------------------------ keyboard
  /**
   * What the table looks like to the readout (readout.js).
   * @returns {import("./readout.js").Seen}
   */
  seen() {
    // Only asked while a state with an observation is drawn.
    const obs = /** @type {import("./types").Observation} */ (/** @type {import("./types").State} */ (this.state).observation);
    return { obs, room: this.room, me: this.me, names: this.names(), myTurn: this.myDecision(), side: sideIndex(obs, this.variant) };
  }

  /**
   * Read part of the table out, at once (the keys H, T, R; "hand", "table", "moves" typed).
   * @param {string} what "hand", "table" or "moves"
   */
  readOut(what) {
    if (!this.state || !this.state.observation) return;
    const seen = this.seen();
    if (what === "hand") announceUrgent(handWords(seen));
    else if (what === "table") announceUrgent(`${tableWords(seen, (seat) => this.seatStatus(seat))}. ${this.promptText()}`);
    else announceUrgent(movesWords(this.log, this.names(), this.me));
  }

  /** Put the focus in the field of text mode, when it is on. */
  focusTyping() {
    const field = this.root.querySelector("#move-text");
    if (field instanceof HTMLElement) field.focus();
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    if (!this.state) return;
    const found = tableCommand(event, catalog().keys);
    if (!found) return;
    const { command, key } = found;
    if (this.readOnly && command !== "log") return; // a replay's own keys step through it
    /** @type {Record<string, string>} */
    const reads = { read_hand: "hand", read_table: "table", read_moves: "moves" };
    if (reads[command]) {
      this.readOut(reads[command]);
      event.preventDefault();
      return;
    }
    if (command === "type") {
      this.focusTyping();
      event.preventDefault();
      return;
    }
    /** @param {string} selector */
    const click = (selector) => {
      const node = this.root.querySelector(/** @type {"button"} */ (selector));
      if (node && !node.disabled) {
        node.click();
        event.preventDefault();
        return true;
      }
      return false;
    };
    const cards = [...this.root.querySelectorAll(/** @type {"button"} */ (".hand-card"))];
    /** @param {HTMLElement | undefined} node */
    const focus = (node) => {
      if (node) {
        node.focus();
        node.scrollIntoView({ block: "nearest", inline: "nearest" });
        event.preventDefault();
      }
    };
    if (command === "draw") click('[data-verb="draw"], [data-verb="press"], [data-verb="press_again"], [data-verb="accept"]');
    else if (command === "uno") click(".uno-button");
    else if (command === "catch") click('[data-verb="catch"]');
    else if (command === "jump") click('[data-verb="jump"]');
    else if (command === "keep") click('[data-verb="keep"]');
    else if (command === "play_drawn") click('[data-verb="play_drawn"]');
    else if (command === "more_time") click("#more-time");
    else if (command === "pause") click("#pause-table");
    else if (command === "back") {
      if (this.reacting) {
        this.closeReactions();
        event.preventDefault();
      } else click(".cancel-choice, .close-panel");
    }
    else if (command === "log") this.toggleDrawer();
    else if (command === "move") {
      const at = cards.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      const next = at < 0 ? 0 : (at + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length;
      focus(cards[next]);
    } else if (command === "first_last") focus(key === "home" ? cards[0] : cards[cards.length - 1]);
    else if (command === "rows") {
      const buttons = [...this.root.querySelectorAll(/** @type {"button"} */ (".choices button"))];
      const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      if (buttons.length) focus(buttons[(at + (key === "arrowdown" ? 1 : -1) + buttons.length) % buttons.length]);
    } else if (command === "pick") {
      // At a decision of the hand the digit picks that card (Enter plays it), as in the
      // terminal; with other answers shown (a colour, keep or play, a challenge), it takes one.
      const index = (Number(key) || 10) - 1;
      const decision = (this.state.observation && this.state.observation.decision) || "";
      const fromHand = this.myDecision() && !this.choosing && catalog().hand_decisions.includes(decision);
      const buttons = fromHand ? [] : [...this.root.querySelectorAll(/** @type {"button"} */ (".choices [data-action]"))];
      if (buttons.length) {
        const node = buttons[index];
        if (node && !node.disabled) {
          node.click();
          event.preventDefault();
        }
      } else focus(cards[index]);
    }
  }

  /** Open the drawer at the scores (the last round's summary, card by card). */
  showScores() {
    this.drawerTab = "scores";
    this.render();
    this.toggleDrawer(true);
  }

  /**
   * Open or close the drawer (the log and the scores); `open` undefined: the other way.
   * @param {boolean} [open]
   */
  toggleDrawer(open) {
    const drawer = this.root.querySelector('[data-region="log"]');
    if (!drawer) return;
    const show = open === undefined ? !drawer.classList.contains("open") : open;
    drawer.classList.toggle("open", show);
    document.querySelectorAll("[data-toggles='drawer']").forEach((b) => b.setAttribute("aria-expanded", String(show)));
    if (show) requestAnimationFrame(() => drawer.querySelector(/** @type {"button"} */ (".drawer-tab[aria-selected='true']"))?.focus());
  }

  // ------------------------------------------------------------------ drawing
  /**
   * Where the focus is in the table: the element, its key (data-key: the same control drawn
   * again), the region it is in and its place among that region's controls; null outside.
   * @returns {{element: HTMLElement, key: string|null, region: string|null, index: number,
   *   selection: number[]|null}|null}
   */
  focusMark() {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.root.contains(active)) return null;
    const region = active.closest("[data-region]");
    const controls = region ? [...region.querySelectorAll(FOCUSABLE)] : [];
    const field = active instanceof HTMLInputElement ? active : null;
    return {
      element: active,
      key: active.dataset.key || null,
      region: region instanceof HTMLElement ? region.dataset.region || null : null,
      index: controls.indexOf(active),
      selection: field && field.selectionStart !== null ? [field.selectionStart, field.selectionEnd || 0] : null,
    };
  }

  /**
   * Put the focus back where it was after the table was drawn again: on the same element, or
   * the control drawn for the same thing, or the one now at its place in its region (the next
   * card when a card was played), or the decision. A focus the reader moved out of the table
   * stays where it is.
   * @param {ReturnType<TableView["focusMark"]>} mark
   */
  restoreFocus(mark) {
    const active = document.activeElement;
    if (!mark || (active && active !== document.body && !this.root.contains(active))) return;
    if (this.root.contains(active) && active !== this.root) return;
    /** @param {HTMLElement} node */
    const put = (node) => {
      node.focus({ preventScroll: true });
      if (mark.selection && node instanceof HTMLInputElement) node.setSelectionRange(mark.selection[0], mark.selection[1]);
    };
    if (mark.element.isConnected) return put(mark.element);
    const again = mark.key ? this.root.querySelector(`[data-key="${CSS.escape(mark.key)}"]`) : null;
    if (again instanceof HTMLElement) return put(again);
    const region = mark.region ? this.root.querySelector(`[data-region="${mark.region}"]`) : null;
    const controls = region ? [...region.querySelectorAll(FOCUSABLE)].filter((n) => n instanceof HTMLElement && !n.hidden) : [];
    const near = controls[Math.min(Math.max(mark.index, 0), controls.length - 1)];
    const fallback = near || this.root.querySelector('[data-region="prompt"]');
    if (fallback instanceof HTMLElement) put(fallback);
  }

  render() {
    const state = this.state;
    if (!state) return;
    const mark = this.focusMark() || (document.activeElement === document.body ? this.lastFocus : null);
    const firstDrawing = !this.root.querySelector('[data-region="prompt"]');
    const drawerOpen = this.root.querySelector('[data-region="log"].open') !== null;
    const handBefore = this.root.querySelector(".hand");
    const handScroll = handBefore ? handBefore.scrollLeft : 0;
    const obs = state.observation;
    clear(this.root);
    this.root.dataset.step = String(state.game_step);
    this.root.dataset.game = String(this.room.game_no);
    this.root.dataset.phase = this.room.phase;
    if (!obs) {
      this.root.append(h("p.notice", {}, t("table.not_started")));
      return;
    }
    const variant = this.variant;
    useVariant(this.room.variant);
    const side = sideIndex(obs, variant);
    const sideColors = variant.side_colors[side] || variant.side_colors[0];
    const mine = this.me !== null;
    const table = h(`section.table.side-${side}`, { "data-region": "table", "aria-label": t("table.label") });
    table.append(this.renderSeats(obs, side, variant), this.renderCentre(obs, side, sideColors, variant),
      this.renderNotes(obs, side, sideColors));
    const prompt = this.readOnly && this.hooks.controls ? this.hooks.controls() : this.renderPrompt(obs, side, sideColors, mine);
    this.root.append(table, prompt);
    if (mine) this.root.append(this.renderSelf(obs), this.renderHand(obs, side, sideColors));
    else {
      this.root.append(h("section.hand-area.watching", { "data-region": "hand", "aria-label": t("room.watching") },
        h("p.spectating", {}, t("table.spectating"))));
    }
    this.root.append(this.renderDrawer(obs));
    this.root.append(...this.endScreens(obs));
    if (drawerOpen) this.root.querySelector('[data-region="log"]')?.classList.add("open");
    const handList = this.root.querySelector(".hand");
    if (handList) handList.scrollLeft = handScroll;
    this.layoutSeats();
    this.layoutHand();
    this.setBusy(this.conn.busy);
    if (mark) this.restoreFocus(mark);
    else if (firstDrawing && (!document.activeElement || document.activeElement === document.body)) {
      // The table has just come: the reader is put at the decision, inside the table.
      this.root.querySelector(/** @type {"section"} */ ('[data-region="prompt"]'))?.focus({ preventScroll: true });
    }
    this.focusEnd();
    this.lastFocus = this.focusMark() || this.lastFocus;
    this.moveBox.refresh();
    this.tick();
  }

  /**
   * When the game's end is drawn for the first time (for this game), put the focus on its first
   * control (Play again), unless the reader had moved it out of the table or is in the drawer
   * (its chat, its tabs): the hand they were on has nothing left to do.
   */
  focusEnd() {
    const end = this.root.querySelector(/** @type {"section"} */ ('.overlay[data-region="end"]'));
    if (!end || this.endFocused === this.room.game_no) return;
    this.endFocused = this.room.game_no;
    const active = document.activeElement;
    const elsewhere = active instanceof HTMLElement && active !== document.body
      && (!this.root.contains(active) || active.closest('[data-region="log"]') !== null);
    const first = end.querySelector(/** @type {"button"} */ ("button, a[href]"));
    if (!elsewhere && first) first.focus({ preventScroll: true });
  }

  /**
   * What stands over the table between hands and after the game: the round's summary while
   * the next hand waits, the game's end until the reader closes it (none in a replay).
   * @param {import("./types").Observation} obs the observation
   * @returns {HTMLElement[]}
   */
  endScreens(obs) {
    if (this.readOnly) return [];
    const out = [];
    if (this.summary && this.summaryShown && this.room.phase === "hand_over") out.push(roundSummaryPanel(this));
    const over = obs.over || this.room.phase === "finished";
    if (over && this.overClosed !== this.room.game_no) out.push(gameOverDialog(this, obs));
    return out;
  }

  /**
   * A seat's presence or bot level, in words ("" when there is nothing to say).
   * @param {number} seat
   * @returns {string}
   */
  seatStatus(seat) {
    const room = this.room;
    const info = room.seats[seat];
    if ((room.away || []).includes(seat)) return t("seat.away");
    if (info.kind === "human" && room.connected && !room.connected[seat]) return t("seat.disconnected");
    if (info.kind === "bot") return botStrength(/** @type {string} a bot's seat names its bot */ (info.bot));
    return "";
  }

  /**
   * The turn ring around an avatar; its arc shows the time left (tick() sets it).
   * @param {string} name
   * @param {number} seat
   * @param {boolean} active
   */
  avatar(name, seat, active) {
    const ring = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    ring.setAttribute("viewBox", "0 0 44 44");
    ring.setAttribute("class", "turn-ring");
    ring.setAttribute("aria-hidden", "true");
    const track = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    for (const [k, v] of Object.entries({ cx: 22, cy: 22, r: 20.5, class: "ring-track" })) track.setAttribute(k, String(v));
    const arc = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    for (const [k, v] of Object.entries({ cx: 22, cy: 22, r: 20.5, class: "ring-arc", pathLength: 100 })) arc.setAttribute(k, String(v));
    ring.append(track, arc);
    return h(`div.avatar-box${active ? ".active" : ""}`, { dataset: { seat: String(seat) } }, avatarSvg(name), ring);
  }

  /**
   * @param {import("./types").Observation} obs
   * @param {number} side
   * @param {import("./types").VariantInfo} variant
   */
  renderSeats(obs, side, variant) {
    const names = this.names();
    const me = this.me;
    const row = h("ol.seats", { "aria-label": t("table.players") });
    const backColors = variant.side_colors[1 - side] || variant.side_colors[0];
    const n = obs.players;
    const order = [];
    for (let i = 1; i <= n; i++) {
      const seat = ((me === null ? n - 1 : me) + i) % n;
      if (seat !== me) order.push(seat);
    }
    order.forEach((seat) => row.append(this.renderSeat(obs, seat, names, backColors)));
    return row;
  }

  /**
   * One seat's box: avatar with its turn ring, marks over the avatar (host, dealer, UNO), the
   * card count, the name, the level or presence with the points, and on a double-sided deck the
   * backs it shows, grouped by colour. Its height does not change from move to move.
   * @param {import("./types").Observation} obs the observation
   * @param {number} seat the seat
   * @param {string[]} names the seats' names as the table shows them
   * @param {string[]} backColors the colours of the side not in play
   * @returns {HTMLElement}
   */
  renderSeat(obs, seat, names, backColors) {
    const room = this.room;
    const active = obs.to_act === seat && room.phase === "playing" && !obs.over;
    const info = room.seats[seat];
    const count = obs.hand_sizes[seat];
    const status = this.seatStatus(seat);
    const points = t("n.points", { count: obs.scores[seat] });
    const label = seatWords(this.seen(), seat, status);
    const item = h(`li.seat${active ? ".to-act" : ""}`, {
      "aria-current": active ? "true" : undefined,
      "aria-label": label,
      dataset: { seat: String(seat), kind: info.kind, anchor: `seat-${seat}` },
    });
    const badges = h("div.seat-badges");
    if (room.host_seat === seat) badges.append(seatMark("host"));
    if (obs.dealer === seat) badges.append(seatMark("dealer"));
    const counted = count === 1
      ? seatMark(obs.uno_exposed === seat ? "no_uno" : "uno")
      : h("span.count", { title: t("n.cards", { count }) }, String(count));
    item.append(
      h("div.seat-head", {}, this.avatar(info.name || "", seat, active), counted, badges),
      h("div.seat-name", { title: names[seat] },
        h("span.name-long", {}, shortName(names[seat], 12)),
        h("span.name-short", {}, shortName(names[seat], 8))),
      h("div.seat-info", {}, status ? h("span.seat-status", {}, status) : null, h("span.seat-score", {}, points)),
    );
    const backs = obs.backs ? obs.backs[seat] : null;
    if (backs && backs.length) item.append(backsBox(backs, backColors, names[seat]));
    return item;
  }

  /** Place the other seats around the table, in the order of play starting at your left, and
   * the centre where no seat covers it (seats.js). */
  layoutSeats() {
    const region = this.root.querySelector(/** @type {"section"} */ ('[data-region="table"]'));
    if (region) layoutTable(region);
  }

  /**
   * @param {import("./types").Observation} obs
   * @param {number} side
   * @param {string[]} sideColors
   * @param {import("./types").VariantInfo} variant
   */
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
    let pile;
    if (obs.launcher) {
      pile = h("div.draw-pile.launcher", { dataset: { anchor: "draw" }, role: "img", "aria-label": drawLabel, title: drawLabel },
        launcherArt(), h("span.pile-count", {}, String(obs.draw_size)));
    } else {
      const drawCard = cardNode(drawFace, obs.draw_top_back ? backSide : 0, backColors);
      drawCard.setAttribute("aria-label", drawLabel);
      drawCard.title = drawLabel;
      pile = h("div.draw-pile", { dataset: { anchor: "draw" } }, drawCard,
        h("span.pile-count", { "aria-hidden": "true" }, String(obs.draw_size)));
    }
    const discard = h(`div.discard.ring-${obs.color || "none"}`, { "aria-label": t("table.discard_pile") });
    const recent = obs.discard.slice(-3);
    recent.forEach((face, i) => {
      const top = i === recent.length - 1;
      const node = cardNode(face, side, sideColors, { extraLabel: top ? t("table.top_of_discard") : "" });
      node.classList.add(`under-${recent.length - 1 - i}`);
      if (top) node.classList.add("top");
      discard.append(node);
    });
    const chips = h("div.chips");
    const color = obs.color;
    chips.append(h(`span.chip.color-chip.c-${color || "none"}`,
      { title: t("table.color_in_play"), "aria-label": `${t("table.color_in_play")}: ${colorWords(color)}` },
      color ? `${symbolGlyph(color)} ${colorTitle(color)}` : t("table.being_chosen")));
    const clockwise = obs.direction === "clockwise";
    chips.append(h("span.chip.direction",
      { title: t(clockwise ? "direction.clockwise" : "direction.counterclockwise"),
        "aria-label": t(clockwise ? "direction.clockwise" : "direction.counterclockwise") },
      clockwise ? "↻" : "↺"));
    if (variant.double_sided) chips.append(h(`span.chip.side-chip.side-${side}`, {},
      t("table.side_value", { side: t(`side.${obs.side}`) })));
    if (obs.stack) chips.append(h("span.chip.stack", { title: t("table.stacked") }, `+${obs.stack}`));
    const piles = h("div.pile-area", { "data-region": "piles", role: "group", "aria-label": t("table.piles") },
      h("div.piles", {}, pile, discard), chips);
    centre.append(piles, this.renderLastMove());
    return centre;
  }

  /** The last move in words, near the piles, kept until the next move (lastmove.js); read out
   * by assistive technology as it changes. */
  renderLastMove() {
    const words = lastMoveWords(this.lastMove, this.me, this.names());
    // Not a live region: every line of the move is said once by the announcer (announce.js).
    return h("p.last-move", { "data-region": "last-move" }, words);
  }

  /** The stand-in's moves for this reader, and whether the reader is away (a stand-in plays
   * their seat until they come back). */
  standin() {
    const me = this.me;
    const seat = me !== null && me !== undefined && this.room ? this.room.seats[me] : null;
    const away = Boolean(seat) && (this.room.away || []).includes(/** @type {number} a seat is found */ (me));
    return { moves: seat ? seat.standin_moves || 0 : 0, away };
  }

  /** Keep what the reader waved away up to date: a count the server reset (the reader moved)
   * starts again, and once "I'm back" has landed every move made while it travelled is seen. */
  noteStandin() {
    const { moves, away } = this.standin();
    if (moves < this.standinSeen) this.standinSeen = 0;
    if (this.backAsked && !away) {
      this.backAsked = false;
      this.standinSeen = moves;
    }
  }

  /**
   * @param {import("./types").Observation} obs
   * @param {number} side
   * @param {string[]} sideColors
   */
  renderNotes(obs, side, sideColors) {
    const now = Date.now();
    this.notes = this.notes.filter((n) => !n.until || n.until > now);
    const box = h("div.notes");
    const { moves, away } = this.standin();
    if (away || moves > this.standinSeen) {
      // A stand-in bot played (or plays) this seat: say so, and give the seat back on request.
      const text = moves ? t("n.table.standin", { count: moves }) : t("table.standin_away");
      box.append(h("div.note.standin", { dataset: { moves: String(moves) } }, h("span", {}, text),
        h("button.primary", { type: "button", dataset: { verb: "back", key: "back" }, onclick: () => {
        if (away) this.conn.back();
        this.backAsked = away;
        this.standinSeen = moves;
        this.render();
      } }, away ? t("table.back_here") : t("table.ok"))));
    }
    for (const note of this.notes) {
      const item = h(`div.note.${note.kind}`, {}, h("span", {}, note.text));
      if (note.cards) {
        const cards = h("div.mini-hand");
        note.cards.forEach((c) => cards.append(cardNode(faceOf(c, side), side, sideColors, { small: true })));
        item.append(cards);
      }
      if (note.action === "scores") item.append(h("button", { type: "button", onclick: () => this.showScores() }, t("table.show_scores")));
      item.append(h("button.close-panel",
        { type: "button", "aria-label": t("table.close"),
          onclick: () => { this.notes = this.notes.filter((n) => n !== note); this.render(); } },
        "✕"));
      box.append(item);
    }
    return box;
  }

  /**
   * @param {import("./types").Observation} obs
   * @param {number} side
   * @param {string[]} sideColors
   * @param {boolean} mine whether the reader has a seat
   */
  renderPrompt(obs, side, sideColors, mine) {
    const names = this.names();
    const box = h("section.prompt", { "data-region": "prompt", "aria-label": t("table.your_decision"), tabindex: "-1",
      dataset: { key: "prompt" } });
    const choices = h("div.choices", { role: "group", "aria-labelledby": "prompt-message" });
    let message = "";
    const { other } = mine ? groupActions(obs) : { other: [] };
    const myTurn = this.myDecision();
    const phase = this.room.phase;
    box.classList.toggle("mine", myTurn);
    if (myTurn) box.dataset.decision = /** @type {string} a decision is open */ (obs.decision);
    if (obs.over || phase === "finished") message = t("decision.over");
    else if (this.room.paused) message = this.pausedWords();
    else if (phase === "hand_over") message = t("table.hand_over");
    else if (!myTurn) {
      const who = obs.to_act;
      message = who === null || who === undefined ? "" : waitingWords(obs, who, names, this.me);
    } else if (this.choosing) {
      const chosen = this.choosing;
      message = chosen.prompt;
      for (const action of chosen.actions) {
        choices.append(h(`button.color-choice.c-${action.color}`,
          { type: "button", dataset: { action: action.text, verb: action.verb, key: `color-${action.color}` },
            onclick: () => this.act(action.text), "aria-label": colorLabel(action.color) },
          actionLabel({ verb: "color", color: action.color }, obs, names, side)));
      }
      choices.append(h("button.cancel-choice", { type: "button", onclick: () => { this.choosing = null; this.render(); } },
        t("table.cancel")));
    } else {
      message = promptMessage(obs, names, side);
    }
    if (myTurn && !this.choosing) {
      const plain = other.filter((a) => !a.uno && a.verb !== "uno" && a.verb !== "catch");
      const colorPicks = plain.filter((a) => a.verb === "color");
      colorPicks.forEach((a) => choices.append(h(`button.color-choice.c-${a.color}`,
        { type: "button", dataset: { action: a.text, verb: a.verb, key: a.text }, onclick: () => this.act(a.text),
          "aria-label": colorLabel(a.color) },
        actionLabel(a, obs, names, side))));
      const drawn = other.filter((a) => a.verb === "play_drawn");
      if (drawn.length) {
        const label = actionLabel(drawn[0], obs, names, side);
        const pending = obs.pending || {};
        const face = pending.card ? faceOf(pending.card, side) : null;
        const colorPrompt = face ? t("table.color_for", { card: faceTitle(face) }) : t("table.color_for_drawn");
        choices.append(h("button.primary",
          { type: "button", dataset: { action: drawn[0].text, verb: "play_drawn", key: "choice-play_drawn" },
            onclick: () => this.choose(drawn, colorPrompt) },
          label));
      }
      for (const action of plain) {
        if (action.verb === "color" || action.verb === "play_drawn") continue;
        const primary = action.verb === "draw" || action.verb === "press";
        choices.append(h(`button.${primary ? "primary" : "choice"}`,
          { type: "button", dataset: { action: action.text, verb: action.verb, key: action.text }, onclick: () => this.act(action.text) },
          actionLabel(action, obs, names, side)));
      }
    }
    // Nothing is offered out of turn while the host holds the game (the server refuses it).
    if (mine && !obs.over && phase === "playing" && !this.room.paused) {
      for (const action of other.filter((a) => a.verb === "catch")) {
        choices.append(h("button.catch",
          { type: "button", dataset: { action: action.text, verb: "catch", key: action.text }, onclick: () => this.act(action.text) },
          actionLabel(action, obs, names, side)));
      }
      if (!myTurn && obs.to_act !== this.me) {
        // Jump-In (a house rule): a play offered out of turn is a jump with an identical card.
        for (const actions of groupActions(obs).byCard.values()) {
          for (const action of actions.filter((a) => a.verb === "play")) {
            const face = faceTitle(faceOf(/** @type {string} a card's play */ (action.card), side));
            choices.append(h("button.jump",
              { type: "button", dataset: { action: action.text, verb: "jump", key: action.text }, onclick: () => this.act(action.text) },
              t(action.uno ? "table.jump_in_uno" : "table.jump_in", { card: face })));
          }
        }
      }
    }
    if (myTurn && !this.choosing && phase === "playing" && this.hintsAllowed() && choiceCount(obs) > 1) {
      const shown = this.hint && this.hint.step === /** @type {import("./types").State} */ (this.state).game_step ? this.hint : null;
      if (shown && shown.line) message = t("table.hint_shows",
        { action: say(shown.line, names, this.me), chance: percent(/** @type {number} an answer's */ (shown.chance)) });
      else if (shown && shown.error) message = shown.error;
      if (!shown || shown.error) {
        choices.append(h("button.hint#hint-button",
          { type: "button", disabled: shown && shown.waiting ? true : undefined, dataset: { verb: "hint" }, onclick: () => this.askHint() },
          shown && shown.waiting ? t("table.hint_wait") : t("table.hint")));
      }
    }
    const moreTime = this.moreTimeButton();
    if (moreTime) choices.append(moreTime);
    if (this.room.paused && !obs.over) {
      box.classList.add("paused");
      const resume = this.pauseButton();
      if (resume) choices.append(resume);
    }
    if ((obs.over || phase === "finished") && this.overClosed === this.room.game_no) {
      choices.append(h("button#show-result", { type: "button", onclick: () => { this.overClosed = null; this.render(); } },
        t("table.show_result")));
    }
    if (this.error) box.append(h("p.error", {}, this.error));
    box.append(h("p.message#prompt-message", {}, message), choices);
    if (mine && !this.readOnly && keySettings().typing && phase !== "finished") box.append(this.moveBox.element);
    return box;
  }

  /** Whether this room gives this seat hints: the server runs them, and its host allowed them
   * or every other seat is a bot (the server checks it too). */
  hintsAllowed() {
    if (this.readOnly || this.conn.seat === null || this.conn.seat === undefined || !runs("hints")) return false;
    if (this.room.settings && this.room.settings.hints) return true;
    return this.room.seats.every((seat) => seat.seat === this.conn.seat || seat.kind === "bot");
  }

  /** Ask the server for a hint at this decision; it is shown in the decision's place. */
  askHint() {
    const step = /** @type {import("./types").State} a decision is drawn */ (this.state).game_step;
    this.hint = { step, waiting: true };
    const sent = this.conn.hint((msg) => {
      if (msg.type === "hint") this.hint = { step: msg.step, line: msg.line, chance: msg.chance };
      else this.hint = { step, error: errorText(msg) };
      this.render();
    });
    if (!sent) this.hint = null;
    this.render();
  }

  /**
   * A card (or the drawn card) was picked: play it, or ask for the colour first.
   * @param {import("./prompt.js").ParsedAction[]} actions its plays
   * @param {string} colorPrompt the question when a colour is to be named
   */
  choose(actions, colorPrompt) {
    const wanted = actions.filter((a) => a.uno === this.unoArmed);
    const pool = wanted.length ? wanted : actions.filter((a) => !a.uno);
    const usable = pool.length ? pool : actions;
    const colored = usable.filter((a) => a.color);
    if (colored.length > 1) {
      this.choosing = { prompt: colorPrompt, actions: colored };
      this.render();
      const first = this.root.querySelector(/** @type {"button"} */ (".color-choice"));
      if (first) first.focus();
      return;
    }
    this.act(usable[0].text);
  }

  /** Say UNO with the next play, or not (the UNO button's toggle; "uno" typed). */
  armUno() {
    this.unoArmed = !this.unoArmed;
    if (this.unoArmed) playSound("uno");
    this.render();
  }

  /**
   * The big UNO button: arms the call that goes with your next play, or calls it late.
   * @param {import("./types").Observation} obs
   */
  unoButton(obs) {
    const late = obs.legal_actions.find((a) => a === "uno" || a.startsWith("uno "));
    const forms = this.myDecision() && obs.legal_actions.some((a) => a.endsWith(" uno") && !a.startsWith("uno"));
    const off = !late && !forms;
    const label = late ? t("action.uno") : this.unoArmed ? t("table.uno_armed") : t("table.uno_arm");
    return h(`button.uno-button${this.unoArmed ? ".armed" : ""}${late ? ".late" : ""}`, {
      type: "button",
      "aria-pressed": forms ? String(this.unoArmed) : undefined,
      "aria-label": off ? t("table.uno_off") : label,
      title: off ? t("table.uno_off") : label,
      dataset: { key: "uno", verb: late ? "uno" : "uno-toggle", action: late || undefined, off: String(off) },
      disabled: off || undefined,
      onclick: () => {
        if (late) this.act(late);
        else this.armUno();
      },
    }, t("table.uno"));
  }

  /** The quick reactions a tap away at the table (they are also in the chat): a button that
   * opens them over the hand; one tap sends one and closes them. Off while the seat is muted. */
  reactButton() {
    const muted = mutedIn(this.room, this.me);
    if (muted) this.reacting = false; // muted while they were open: they stay closed after
    const open = this.reacting;
    const box = h("div.react-box");
    box.append(h("button.react-toggle", {
      type: "button",
      title: t("chat.reactions"),
      "aria-label": t("chat.reactions"),
      "aria-expanded": String(open),
      dataset: { key: "react", verb: "reactions" },
      disabled: muted || undefined,
      onclick: () => {
        this.reacting = !this.reacting;
        this.render();
      },
    }, "☺"));
    if (open) {
      box.append(h("div.react-pop", { role: "group", "aria-label": t("chat.reactions") },
        catalog().reactions.map((key) => reactionButton(key, () => {
        this.conn.chat({ reaction: key });
        this.closeReactions();
      }, true))));
    }
    return box;
  }

  /** Close the quick reactions and give the focus back to the button that opens them. */
  closeReactions() {
    this.reacting = false;
    this.render();
    const toggle = this.root.querySelector(/** @type {"button"} */ (".react-toggle"));
    if (toggle) toggle.focus({ preventScroll: true });
  }

  /**
   * The reader's own place at the table (data-region="self"): avatar with the turn ring, name and
   * time left on one line, cards and points on the next, then the quick reactions, the sort
   * and the UNO! button.
   * @param {import("./types").Observation} obs the observation
   * @returns {HTMLElement}
   */
  renderSelf(obs) {
    const me = /** @type {number} drawn for a seated reader */ (this.me);
    const names = this.seatNames();
    const active = obs.to_act === me && this.room.phase === "playing" && !obs.over;
    const sorted = this.sort === "value";
    const sortButton = h("button.sort", {
      type: "button",
      title: t("table.sort"),
      "aria-label": sorted ? t("table.sorted_by_number") : t("table.sorted_by_colour"),
      dataset: { key: "sort" },
      onclick: () => {
        this.sort = sorted ? "color" : "value";
        localStorage.setItem(SORT_KEY, this.sort);
        this.render();
      },
    }, sorted ? "1→9" : ["red", "yellow", "green", "blue"].map((c) => symbolGlyph(c)).join("")); // the deck's own marks
    const info = `${t("n.cards", { count: obs.hand.length })} · ${t("n.points", { count: obs.scores[me] })}`;
    const box = h("div.hand-head", { "data-region": "self", "aria-label": t("table.you"), dataset: { seatBox: String(me) } },
      this.avatar(names[me] || "", me, active),
      h("div.me-box", {},
        h("span.me-line", {},
          h("span.me-name", { title: names[me] }, shortName(names[me] || "", 16)),
          h("span.timer", { role: "timer", "aria-label": t("table.time_left") })),
        h("span.me-info", {}, info)),
      this.readOnly ? null : this.reactButton(),
      sortButton,
      this.readOnly ? null : this.unoButton(obs));
    return box;
  }

  /**
   * @param {import("./types").Observation} obs
   * @param {number} side
   * @param {string[]} sideColors
   */
  renderHand(obs, side, sideColors) {
    const { byCard } = groupActions(obs);
    const myTurn = this.myDecision();
    const order = this.sort === "value" ? faceValueOrder : faceOrder;
    const sorted = [...obs.hand].sort((a, b) => order(faceOf(a, side), sideColors) - order(faceOf(b, side), sideColors));
    const label = t("n.table.your_hand", { count: sorted.length });
    const wrap = h("section.hand-area", { "data-region": "hand", "aria-label": label, dataset: { anchor: "hand" } });
    wrap.classList.toggle("my-turn", myTurn);
    const list = h("ul.hand", { dataset: { count: String(sorted.length) } });
    sorted.forEach((text, index) => {
      const face = faceOf(text, side);
      const actions = byCard.get(text) || [];
      const playable = myTurn && actions.length > 0;
      const discarding = actions.some((a) => a.verb === "discard");
      const extra = [playable ? (discarding ? t("table.can_discard") : t("table.playable")) : ""];
      if (obs.backs !== undefined && text.includes("/")) extra.push(t("table.back", { card: faceTitle(faceOf(text, 1 - side)) }));
      const button = cardNode(face, side, sideColors, { tag: "button", extraLabel: extra.filter(Boolean).join(", ") });
      /** @type {HTMLButtonElement} */ (button).type = "button";
      button.classList.add("hand-card");
      if (playable) button.classList.add("playable");
      button.dataset.card = text;
      button.dataset.key = `card-${text}-${index}`;
      // Every card stays focusable (a screen reader walks the whole hand); only playable cards act.
      button.setAttribute("aria-disabled", playable ? "false" : "true");
      if (playable) {
        const colorPrompt = parseFace(face).kind === "wild_discard_all" ? t("table.which_color_discard") : t("table.color_for",
          { card: faceTitle(face) });
        button.addEventListener("click", () => this.choose(actions, colorPrompt));
      }
      this.longPress(button, text, side);
      const item = h("li", {}, button);
      if (text.includes("/")) item.append(h("span.back-peek", { "aria-hidden": "true" },
        cardNode(faceOf(text, 1 - side), 1 - side, this.variant.side_colors[1 - side] || sideColors, { small: true })));
      list.append(item);
    });
    wrap.append(list, this.scrollButton(list, -1), this.scrollButton(list, 1));
    list.addEventListener("scroll", () => this.markScroll(), { passive: true });
    return wrap;
  }

  /**
   * A button at one end of a hand too long for its row: shown while more cards lie that way,
   * it scrolls the hand by most of its width.
   * @param {HTMLElement} list the hand's list
   * @param {number} way -1 to the left, 1 to the right
   * @returns {HTMLElement}
   */
  scrollButton(list, way) {
    const label = t(way < 0 ? "table.hand_left" : "table.hand_right");
    return h(`button.hand-scroll.${way < 0 ? "to-left" : "to-right"}`, {
      type: "button",
      tabindex: "-1",
      title: label,
      "aria-label": label,
      onclick: () => list.scrollBy({ left: way * Math.max(88, list.clientWidth * 0.75), behavior: "smooth" }),
    }, way < 0 ? "‹" : "›");
  }

  /** Say on the hand's area whether more cards lie to the left or the right of what shows (a
   * fade and a button at that end). */
  markScroll() {
    const list = this.root.querySelector(".hand");
    const area = this.root.querySelector(".hand-area");
    if (!list || !area) return;
    const more = list.scrollWidth - list.clientWidth;
    area.classList.toggle("more-left", more > 1 && list.scrollLeft > 2);
    area.classList.toggle("more-right", more > 1 && list.scrollLeft < more - 2);
  }

  /**
   * A long press on a card shows its printed name (a tooltip for touch screens).
   * @param {HTMLElement} node
   * @param {string} text the card
   * @param {number} side
   */
  longPress(node, text, side) {
    const show = () => {
      const tip = h("span.card-tip", { role: "tooltip" }, node.title);
      node.parentElement?.append(tip);
      setTimeout(() => tip.remove(), 1800);
    };
    node.addEventListener("touchstart", () => { this.pressTimer = setTimeout(show, 500); }, { passive: true });
    for (const kind of ["touchend", "touchmove", "touchcancel"]) node.addEventListener(kind, () => clearTimeout(this.pressTimer),
      { passive: true });
    node.addEventListener("contextmenu", (event) => { event.preventDefault(); show(); });
  }

  /** Fit the hand to its width: the cards overlap as much as they must (each keeping at least
   * 44 px to touch), and a hand too long for that scrolls sideways. */
  layoutHand() {
    const list = this.root.querySelector(/** @type {"ul"} */ (".hand"));
    if (!list) return;
    const items = /** @type {HTMLElement[]} */ ([...list.children]);
    if (!items.length) return;
    const width = list.clientWidth - 20; // less its padding
    const card = items[0].offsetWidth;
    const n = items.length;
    const natural = card + 6;
    const step = n > 1 ? Math.max(44, Math.min(natural, (width - card) / (n - 1))) : natural;
    list.style.setProperty("--step", `${step}px`);
    list.classList.toggle("overlap", step < card);
    list.classList.toggle("scrolls", (n - 1) * step + card > width);
    const curve = (n - 1) * step + card <= width && n > 1;
    items.forEach((item, i) => {
      const offset = i - (n - 1) / 2;
      const angle = curve ? Math.max(-8, Math.min(8, offset * Math.min(2, 16 / n))) : 0;
      const lift = curve ? Math.min(8, offset * offset * Math.min(0.6, 6 / n)) : 0;
      item.style.setProperty("--angle", `${angle.toFixed(2)}deg`);
      item.style.setProperty("--lift", `${lift.toFixed(1)}px`);
    });
    if (this.myDecision()) {
      const first = list.querySelector(".hand-card.playable");
      if (first && list.classList.contains("scrolls")) {
        const box = /** @type {HTMLElement} */ (first.parentElement);
        if (box.offsetLeft < list.scrollLeft || box.offsetLeft + step > list.scrollLeft + width) list.scrollLeft = Math.max(0,
          box.offsetLeft - 16);
      }
    }
    this.markScroll();
  }

  /** @param {import("./types").Observation} obs */
  renderDrawer(obs) {
    const tabs = [["log", t("table.events")], ["scores", t("table.scores_tab")], ["room", t("table.room_tab")]];
    const drawer = h("aside.drawer", { "data-region": "log", "aria-label": t("table.sidebar") });
    // The tabs are a tablist of their own; the close button sits beside them, outside it.
    const bar = h("div.drawer-tabs");
    const tabList = h("div.tab-list", { role: "tablist", "aria-label": t("table.sidebar") });
    bar.append(tabList);
    for (const [name, label] of tabs) {
      tabList.append(h("button.drawer-tab",
        { type: "button", role: "tab", id: `tab-${name}`, "aria-selected": String(this.drawerTab === name),
          "aria-controls": `panel-${name}`,
          onclick: () => {
            this.drawerTab = name;
            this.render();
            this.root.querySelector(/** @type {"button"} */ (`#tab-${name}`))?.focus();
          } },
        label));
    }
    bar.append(h("button.close-drawer", { type: "button", "aria-label": t("table.close"), onclick: () => this.toggleDrawer(false) }, "✕"));
    drawer.append(bar);
    const logPanel = h("div.drawer-panel#panel-log",
      { role: "tabpanel", tabindex: "0", "aria-labelledby": "tab-log", hidden: this.drawerTab !== "log" || undefined });
    const list = this.logElement();
    logPanel.append(list);
    requestAnimationFrame(() => { logPanel.scrollTop = logPanel.scrollHeight; });
    const scorePanel = h("div.drawer-panel#panel-scores",
      { role: "tabpanel", tabindex: "0", "aria-labelledby": "tab-scores", hidden: this.drawerTab !== "scores" || undefined });
    scorePanel.append(this.renderScores(obs));
    if (this.summary) scorePanel.append(h("h3", {}, t("summary.last_round")), summaryTable(this, this.summary));
    const roomPanel = h("div.drawer-panel#panel-room",
      { role: "tabpanel", tabindex: "0", "aria-labelledby": "tab-room", hidden: this.drawerTab !== "room" || undefined });
    roomPanel.append(this.renderRoomFacts());
    drawer.append(logPanel, scorePanel, roomPanel);
    // The room's chat (the room page's panel, the same element at every redraw) under the tabs.
    if (this.chat) drawer.append(h("div.drawer-chat", {}, this.chat));
    return drawer;
  }

  /**
   * The game's log as a list that is kept from one drawing to the next: the lines that came
   * since are added to it, and it is drawn again when the log was replaced (a new game, or the
   * whole log that answers a hello).
   * @returns {HTMLElement}
   */
  logElement() {
    if (!this.logList) {
      /** @type {HTMLOListElement | undefined} made at the first drawing */
      this.logList = h("ol.log", { "aria-label": t("table.log_label") });
    }
    const list = this.logList;
    if (this.logDrawn !== this.log) clear(list); // replaced: drawn again from its first line
    /** @type {{line: import("./types").Line, standin: boolean}[] | undefined} the log the list shows */
    this.logDrawn = this.log;
    const names = this.names();
    for (const entry of this.log.slice(list.children.length)) {
      const mark = entry.standin ? h("span.standin-mark", {}, ` (${t("table.log_standin")})`) : null;
      list.append(h(`li${entry.standin ? ".standin" : ""}`, {}, say(entry.line, names, this.me), mark));
    }
    return list;
  }

  /** The room in a few lines, the rules it plays and (for the host) the seats' controls. */
  renderRoomFacts() {
    const room = this.room;
    const box = h("div.room-facts");
    const facts = h("dl.facts");
    /** @type {(label: string, value: string | Node) => void} */
    const fact = (label, value) => facts.append(h("dt", {}, label), h("dd", {}, value));
    fact(t("lobby.variant"), `${t(`variant.${room.variant}`)} · ${t("room.game_no", { number: room.game_no })}`);
    if (this.code) fact(t("table.facts_room"), h("span.code", {}, this.code)); // a replay file's has none
    fact(t("table.you"), this.me === null ? t("room.watching") : t("seat.numbered", { number: this.me + 1 }));
    fact(t("chat.spectators"), String(room.spectators || 0));
    box.append(facts);
    // The page's language, here too: the bar has no room for it on a phone at the table.
    box.append(h("div.field.language-field", {},
      h("label", { for: "table-language" }, t("ui.language")),
      languageSwitcher(catalog().languages, "table-language")));
    const rules = rulesOn(catalog(), room);
    box.append(h("h3", {}, t("lobby.rules")),
      rules.length ? h("ul.chips-list", {}, rules.map((r) => h("li.rule-chip", {}, r))) : h("p", {}, t("together.standard_rules")));
    const pause = this.room.paused ? null : this.pauseButton();
    if (pause) box.append(h("p.pause-row", {}, pause));
    const controls = this.hostControls ? this.hostControls() : null;
    if (controls) box.append(controls);
    return box;
  }

  /** @param {import("./types").Observation} obs */
  renderScores(obs) {
    const names = this.seatNames();
    const options = obs.options;
    const scoring = t(`option.scoring.${options.scoring}`);
    const caption = options.rounds
      ? t("table.scores_rounds", { scoring, target: options.target, rounds: t("n.rounds", { count: options.rounds }) })
      : t("table.scores", { scoring, target: options.target });
    const table = h("table.scores", {}, h("caption", {}, caption));
    const body = h("tbody");
    obs.scores.forEach((score, seat) => body.append(h(`tr${seat === this.me ? ".me" : ""}`, {}, h("th", { scope: "row" }, names[seat]),
      h("td", {}, number(score)))));
    table.append(body);
    return table;
  }

  tick() {
    const room = this.room;
    if (!room) return;
    const now = Date.now() / 1000;
    const settings = room.settings || {};
    const obs = this.state && this.state.observation;
    const left = room.deadline && room.phase === "playing" ? Math.max(0, room.deadline - now) : null;
    const total = /** @type {number} */ (settings.turn_seconds) || left || 1;
    this.root.querySelectorAll(".avatar-box").forEach((box) => {
      const arc = /** @type {SVGElement | null} */ (box.querySelector(".ring-arc"));
      const active = box.classList.contains("active");
      if (!arc) return;
      arc.style.strokeDashoffset = String(active && left !== null ? 100 - (100 * Math.min(1, left / total)) : 0);
      box.classList.toggle("low", active && left !== null && left < 10);
    });
    const timer = this.root.querySelector(/** @type {"span"} */ (".timer"));
    if (timer) {
      const mine = obs && obs.to_act === this.me && left !== null;
      timer.textContent = mine ? t("table.seconds_left", { count: Math.ceil(left) }) : "";
      timer.hidden = !mine;
    }
    const countdown = this.root.querySelector(".countdown");
    if (countdown && room.continue_at) countdown.textContent = t("table.next_hand_in",
      { count: Math.max(0, Math.ceil(room.continue_at - now)) });
    if (this.notes.some((n) => n.until && n.until < Date.now())) this.render();
  }
}

/**
 * "Round 2: Bo went out; you gained 40."
 * @param {import("./types").RoundSummary} summary
 * @param {string[]} names
 * @param {number | null} me
 * @returns {string}
 */
function summaryWords(summary, names, me) {
  const line = summary.lines.find((l) => l.seat === me);
  const base = say({ key: N_("table.round_out"), params: { round: summary.round, player: summary.winner } }, names, me);
  return line && line.gained ? `${base} ${t("n.table.gained", { count: line.gained })}` : base;
}

/** The launcher drawn as a machine (the piles of the Attack variants). */
function launcherArt() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 60 90");
  svg.setAttribute("class", "card-svg launcher-svg");
  svg.setAttribute("aria-hidden", "true");
  /** @type {[string, Record<string, string | number>][]} */
  const parts = [
    ["rect", { x: 2, y: 50, width: 56, height: 34, rx: 6, class: "launcher-base" }],
    ["path", { d: "M 8 52 L 8 34 A 22 22 0 0 1 52 34 L 52 52 Z", class: "launcher-dome" }],
    ["rect", { x: 22, y: 6, width: 16, height: 10, rx: 3, class: "launcher-button" }],
    ["rect", { x: 18, y: 60, width: 24, height: 6, rx: 3, class: "launcher-slot" }],
  ];
  for (const [name, attrs] of parts) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    svg.append(node);
  }
  return svg;
}
