// The server: HTTP requests and the websocket of one room (protocol unokit-server/2).
// The connection says hello again with the seat's token after every drop, so a reload or a
// lost network puts the player back in their seat. In a cluster it follows the server's
// "redirect" to the process that owns the room, and after a drop starts again from the page's
// own address, which sends it to whichever process owns the room then.

import { say } from "./i18n.js";

export const PROTOCOL = "unokit-server/2";
/** The close code of a connection whose player lost the seat. */
export const SEAT_LOST = 4001;
/**
 * @typedef {import("./types").Chat | import("./types").Report | import("./types").Hint | import("./types").Quiet} Aside
 *   a message sent beside the table's requests
 */

/** Redirects followed in a row before the client asks to be served where it is. */
const MOST_REDIRECTS = 3;

/** An error from the server: its code and parameters, and the engine's reason behind it
 * (an illegal action, a bad rule option) with its own; `message` is the server's English. */
export class ServerError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{params?: Record<string, unknown>, reason?: string | null, reason_params?: Record<string, unknown>}} [detail]
   */
  constructor(code, message, detail = {}) {
    super(message);
    this.code = code;
    this.params = detail.params || {};
    this.reason = detail.reason || null;
    this.reason_params = detail.reason_params || {};
    /** @type {number | null} seconds to wait before asking again (a 429's Retry-After), null: not said */
    this.retryAfter = null;
  }
}

/**
 * An error (a ServerError or an "error" message) in the reader's language; `names` name
 * the seats it may mention.
 * @param {any} err any: a ServerError, an `error` message, or whatever a request threw (read for its
 *   code, reason and parameters)
 * @param {string[] | null} [names]
 * @returns {string}
 */
export function errorText(err, names = null) {
  if (err.reason) return say({ key: `error.${err.reason}`, params: err.reason_params || {} }, names);
  return say({ key: `server.error.${err.code || "offline"}`, params: err.params || {} }, names);
}

/**
 * GET or POST JSON; a refusal becomes a ServerError with the server's own message.
 * @param {string} path
 * @param {unknown} [body] POSTed as JSON when given
 * @returns {Promise<any>} the route's JSON: any, as each route answers its own shape (the caller names it)
 */
export async function api(path, body = undefined) {
  let response;
  try {
    response = await fetch(path, body === undefined
      ? { headers: { Accept: "application/json" } }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    throw new ServerError("offline", "The server cannot be reached.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.message ? data.message : `the server answered ${response.status}`;
    const err = new ServerError((data && data.error) || "bad_request", message, data || {});
    err.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw err;
  }
  return data;
}

/** What this browser remembers of a room: its seat token, name and host token. */
export const memory = {
  /**
   * @param {string} code
   * @returns {{token: string, seat: number | null} | null}
   */
  seat(code) {
    try {
      return JSON.parse(localStorage.getItem(`unokit.seat.${code}`) || "null");
    } catch (err) {
      return null;
    }
  },
  /**
   * @param {string} code
   * @param {{token: string, seat: number | null} | null} value
   */
  setSeat(code, value) {
    if (value === null) localStorage.removeItem(`unokit.seat.${code}`);
    else localStorage.setItem(`unokit.seat.${code}`, JSON.stringify(value));
  },
  /** @param {string} code */
  host(code) {
    return localStorage.getItem(`unokit.host.${code}`);
  },
  /**
   * @param {string} code
   * @param {string} token
   */
  setHost(code, token) {
    localStorage.setItem(`unokit.host.${code}`, token);
  },
  name() {
    return localStorage.getItem("unokit.name") || "";
  },
  /** @param {string} name */
  setName(name) {
    localStorage.setItem("unokit.name", name);
  },
  /** This browser's player identity: a long random secret, made on first use, that the server
   * knows across rooms (for "My games"). No password: whoever holds it is this player. */
  identity() {
    let secret = localStorage.getItem("unokit.player");
    if (!secret) {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      secret = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      localStorage.setItem("unokit.player", secret);
    }
    return secret;
  },
  forgetIdentity() {
    localStorage.removeItem("unokit.player");
  },
  /** The people this reader muted for themselves in room `code`: the names their messages go
   * by there (`from`), each with the name they were last seen under.
   * @param {string} code
   * @returns {Record<string, string>}
   */
  muted(code) {
    try {
      const saved = JSON.parse(localStorage.getItem(`unokit.muted.${code}`) || "{}");
      return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
    } catch (err) {
      return {};
    }
  },
  /**
   * @param {string} code
   * @param {Record<string, string>} muted
   */
  setMuted(code, muted) {
    if (Object.keys(muted).length) localStorage.setItem(`unokit.muted.${code}`, JSON.stringify(muted));
    else localStorage.removeItem(`unokit.muted.${code}`);
  },
};

/**
 * @typedef {Object} Handlers what a room's page does with the connection's news
 * @property {(status: string, params?: Record<string, unknown>) => void} onStatus connecting, reconnecting, lost, connected
 * @property {(msg: import("./types").Welcome) => void} onWelcome
 * @property {(msg: import("./types").State) => void} onState
 * @property {(msg: import("./types").RoomUpdate) => void} onRoom
 * @property {(msg: import("./types").ErrorMessage) => void} onError
 * @property {(reason: string | null) => void} onClosed
 * @property {(busy: boolean) => void} onBusy whether a request is unanswered (the table's controls wait)
 * @property {(msg: import("./types").ChatMessages) => void} [onChat]
 * @property {(msg: import("./types").ErrorMessage) => void} [onChatError] a chat line or reaction refused
 */

/**
 * One room's websocket. Callbacks: onWelcome(msg), onState(msg), onRoom(msg), onError(msg),
 * onStatus(status, params) (connecting, reconnecting, lost, connected),
   onClosed(reason). act() and host() send at most one request at a time: a
 * second one while the first is unanswered is dropped, so a double click never acts twice.
 * `openSocket` is the room's transport: by default the server's websocket; an offline room
 * passes one that opens the worker's local room (offline.js, WorkerSocket), which speaks the
 * same messages, so the table has one path for both rooms.
 */
export class RoomConnection {
  /**
   * @param {string} code the room's code
   * @param {{role?: string, name?: string, token?: string | null, hostToken?: string | null}} who
   * @param {Handlers} handlers
   * @param {((target: string | null) => WebSocket) | null} [openSocket]
   */
  constructor(code, { role = "player", name = "", token = null, hostToken = null }, handlers, openSocket = null) {
    this.code = code;
    /** @type {((target: string | null) => WebSocket) | null} */
    this.openSocket = openSocket;
    this.role = role;
    this.name = name;
    this.token = token;
    this.hostToken = hostToken;
    this.handlers = handlers;
    /** @type {number | null} the state version the page has */
    this.version = null;
    /** @type {string | null} the decision open at that version */
    this.decision = null;
    /** @type {number | null} */
    this.seat = null;
    this.isHost = false;
    this.nextId = 1;
    /** @type {number | null} the id of the request waiting for its answer */
    this.inFlight = null;
    this.retry = 0;
    this.closedForGood = false;
    /** @type {Map<string | number | null | undefined, (msg: import("./types").ServerMessage) => void>} */
    this.asides = new Map(); // id -> what to do with its answer (chat, reports, quieting)
    /** @type {string | null} the name this reader's chat messages go by in the room */
    this.from = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    // A cluster sends the client to the process that owns the room (a "redirect"); when that
    // address cannot be reached, the client says hello here again, naming it, and is served here.
    this.redirects = 0;
    /** @type {string | null} */
    this.unreachable = null;
    // Whether the page shows the table: said in the hello and whenever it changes, so that the
    // server tells this player by Web Push only when no page of theirs is in view, and gives the
    // seat back from the stand-in when the page is shown again.
    /** @type {boolean | null} */
    this.saidVisible = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} the next try to connect */
    this.timer = undefined;
    this.onVisibility = () => this.sayVisibility();
    document.addEventListener("visibilitychange", this.onVisibility);
    // The service worker says so when the player tapped a notification about this room.
    /** @param {MessageEvent} event */
    this.onWorker = (event) => {
      const data = event.data || {};
      if (data.type === "unokit-back" && data.room === this.code) this.comeBack();
    };
    if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("message", this.onWorker);
    this.open();
  }

  /** Whether the page is in view now. */
  static visible() {
    return document.visibilityState !== "hidden";
  }

  sayVisibility() {
    const visible = RoomConnection.visible();
    if (this.seat === null || this.saidVisible === visible || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.saidVisible = visible;
    this.ws.send(JSON.stringify({ type: "visibility", visible }));
  }

  /** The player came back from a notification: take the seat back from the stand-in now. */
  comeBack() {
    if (this.token && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "back", token: this.token }));
  }

  /**
   * Connect, to `target` (a redirect's address) or to this page's server.
   * @param {string | null} [target]
   */
  open(target = null) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = this.openSocket ? this.openSocket(target) : new WebSocket(target || `${scheme}://${location.host}/ws`);
    let opened = false;
    this.ws = ws;
    this.handlers.onStatus(this.retry ? "reconnecting" : "connecting");
    ws.onopen = () => {
      opened = true;
      /** @type {import("./types").Hello} */
      const hello = { type: "hello", protocol: PROTOCOL, room: this.code, role: /** @type {"player" | "spectator"} */ (this.role),
        id: this.nextId++ };
      if (this.token) hello.token = this.token;
      else if (this.role === "player" || this.name) hello.name = this.name;
      hello.player = memory.identity(); // a spectator too: the room tells people apart by it
      this.saidVisible = RoomConnection.visible();
      if (!this.saidVisible) hello.visible = false;
      if (this.hostToken) hello.host_token = this.hostToken;
      if (this.redirects < MOST_REDIRECTS) {
        hello.redirects = true;
        if (this.unreachable) hello.unreachable = this.unreachable;
      }
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      /** @type {import("./types").ServerMessage} */
      const msg = JSON.parse(event.data);
      if (msg.type === "redirect") {
        this.redirects += 1;
        this.ws = null; // this connection ends here
        ws.close();
        // The page's Content-Security-Policy (connect-src 'self') lets it connect to its own
        // origin only: an owner at another origin is as unreachable as one that does not
        // answer, and the client is served here (by a process that follows the room).
        if (new URL(msg.websocket).host === location.host) this.open(msg.websocket);
        else {
          this.unreachable = msg.websocket;
          this.open();
        }
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      if (target && !opened) {
        // The owner's own address cannot be reached from here: be served where we came from.
        this.unreachable = target;
        this.redirects += 1;
        this.open();
        return;
      }
      this.settle();
      // 4001: the seat is no longer this player's (kicked, replaced, left elsewhere); its
      // token is void, so there is nothing to reconnect to.
      if (event.code === SEAT_LOST) this.closedForGood = true;
      if (this.closedForGood) return;
      this.retry += 1;
      const delay = Math.min(5000, 250 * 2 ** Math.min(this.retry, 5));
      this.handlers.onStatus("lost", { seconds: Math.round(delay / 100) / 10 });
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  close() {
    this.closedForGood = true;
    document.removeEventListener("visibilitychange", this.onVisibility);
    if ("serviceWorker" in navigator) navigator.serviceWorker.removeEventListener("message", this.onWorker);
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  /**
   * Hand a message of the server to its handler.
   * @param {import("./types").ServerMessage} msg
   */
  receive(msg) {
    if (msg.type === "chat") {
      if (this.handlers.onChat) this.handlers.onChat(msg);
      return;
    }
    const replyTo = "reply_to" in msg ? msg.reply_to : undefined;
    const answered = this.asides.get(replyTo);
    if (answered) {
      // the answer to a chat message, a report or a quieting: it never holds the table's controls
      this.asides.delete(replyTo);
      answered(msg);
      return;
    }
    if (msg.type === "welcome") {
      this.retry = 0;
      this.redirects = 0;
      this.unreachable = null;
      this.seat = msg.seat;
      this.from = msg.from || null;
      this.isHost = Boolean(msg.host);
      if (msg.token) this.token = msg.token;
      this.handlers.onStatus("connected");
      this.handlers.onWelcome(msg);
      this.sayVisibility(); // it changed while the hello was on its way
    } else if (msg.type === "state") {
      performance.mark("unokit:state", { detail: msg.version });
      const moved = msg.version !== this.version;
      this.version = msg.version;
      this.decision = msg.observation ? msg.observation.decision : null;
      if (moved || (this.inFlight && msg.reply_to === this.inFlight)) this.settle();
      this.handlers.onState(msg);
    } else if (msg.type === "room") {
      this.version = msg.version;
      this.handlers.onRoom(msg);
    } else if (msg.type === "ack") {
      if (msg.reply_to === this.inFlight) this.settle();
    } else if (msg.type === "error") {
      if (msg.reply_to === undefined || msg.reply_to === this.inFlight) this.settle();
      if (msg.state) {
        this.version = msg.state.version;
        this.handlers.onState(msg.state);
      }
      if ((msg.code === "bad_token" || msg.code === "seat_lost") && this.token) {
        // The seat is gone (kicked, replaced, left from another tab): forget it.
        this.token = null;
      }
      this.handlers.onError(msg);
    } else if (msg.type === "closed") {
      this.closedForGood = true;
      this.handlers.onClosed(msg.reason);
    }
  }

  settle() {
    if (this.inFlight !== null) {
      this.inFlight = null;
      this.handlers.onBusy(false);
    }
  }

  get busy() {
    return this.inFlight !== null;
  }

  /**
   * Send a request of the table's, unless one is unanswered.
   * @param {import("./types").Unsent<import("./types").ClientMessage>} message
   * @returns {boolean} whether it was sent
   */
  send(message) {
    if (this.inFlight !== null || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    const id = this.nextId++;
    this.inFlight = id;
    this.handlers.onBusy(true);
    this.ws.send(JSON.stringify({ ...message, id }));
    return true;
  }

  /**
   * Take an action (its text from legal_actions) at the current state version.
   * @param {string} action
   */
  act(action) {
    /** @type {import("./types").Action} */
    const message = { type: "action", action, version: /** @type {number} */ (this.version), token: /** @type {string} */ (this.token) };
    if (this.decision) message.decision = this.decision;
    return this.send(message);
  }

  /**
   * A host command: add_bot, kick, replace, start, continue, close, pause, resume.
   * @param {string} command
   * @param {{seat?: number, bot?: string}} [extra]
   */
  host(command, extra = {}) {
    // (A page without the host's token or a state shows no host controls; the server refuses such a request.)
    const hostToken = /** @type {string} */ (this.hostToken);
    return this.send({ type: "host", command, host_token: hostToken, version: /** @type {number} */ (this.version), ...extra });
  }

  // The requests of a seated player: a page without the seat's token shows none of them (and the
  // server refuses one without it).

  leave() {
    return this.send({ type: "leave", token: /** @type {string} */ (this.token) });
  }

  /** At this seat's turn, while its timer runs: 30 seconds more (docs/server.md, "More time"). */
  moreTime() {
    return this.send({ type: "more_time", token: /** @type {string} */ (this.token) });
  }

  /** The player is here again: the stand-in bot gives the seat back. */
  back() {
    return this.send({ type: "back", token: /** @type {string} */ (this.token) });
  }

  /**
   * After a game: say whether this seat's player wants to play again.
   * @param {boolean} [flag]
   */
  ready(flag = true) {
    return this.send({ type: "ready", token: /** @type {string} */ (this.token), ready: flag });
  }

  /** A message sent at once, beside any request of the table's (a chat line, a report, quieting
   * the spectators), with the seat's token when there is one; `answered(msg)` gets its answer.
   * @param {import("./types").Unsent<Aside, "token">} message
   * @param {(msg: import("./types").ServerMessage) => void} answered
   */
  aside(message, answered) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    const id = `c${this.nextId++}`;
    this.asides.set(id, answered);
    /** @type {Record<string, unknown>} */
    const full = { ...message, id };
    if (this.seat !== null && this.token) full.token = this.token;
    this.ws.send(JSON.stringify(full));
    return true;
  }

  /**
   * A chat line ({text}) or a quick reaction ({reaction}) (its refusal comes to onChatError).
   * @param {{text?: string, reaction?: string}} fields
   */
  chat(fields) {
    return this.aside({ type: "chat", ...fields }, (msg) => {
      if (msg.type === "error" && this.handlers.onChatError) this.handlers.onChatError(msg);
    });
  }

  /** Report a chat line ({about: "chat", message: n}), or a name or a player's conduct
   * ({about: "name" | "conduct", seat} or {about, from}); `answered(msg)`: an ack or an error.
   * @param {{about: "chat" | "name" | "conduct", message?: number, seat?: number, from?: string}} fields
   * @param {(msg: import("./types").ServerMessage) => void} answered
   */
  report(fields, answered) {
    return this.aside({ type: "report", ...fields }, answered);
  }

  /** Ask for a hint at this seat's decision (rooms that give them: docs/review.md, "Hints");
   * `answered(msg)` gets the hint ({step, action, line, chance}) or an error.
   * @param {(msg: import("./types").ServerMessage) => void} answered
   */
  hint(answered) {
    return this.aside({ type: "hint" }, answered);
  }

  /**
   * In a room with no host, a player quiets the spectators' chat (or lets them talk again).
   * @param {boolean} flag
   * @param {(msg: import("./types").ServerMessage) => void} answered
   */
  quiet(flag, answered) {
    return this.aside({ type: "quiet", quiet: flag }, answered);
  }
}
