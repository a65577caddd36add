// The server: HTTP requests and the websocket of one room (protocol unokit-server/1).
// The connection says hello again with the seat's token after every drop, so a reload or a
// lost network puts the player back in their seat.

import { t } from "./text.js";

export const PROTOCOL = "unokit-server/1";

/** An error from the server, in words. */
export class ServerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** GET or POST JSON; a refusal becomes a ServerError with the server's own message. */
export async function api(path, body = undefined) {
  let response;
  try {
    response = await fetch(path, body === undefined
      ? { headers: { Accept: "application/json" } }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    throw new ServerError("offline", t("web.offline.message"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.message ? data.message : t("web.error.status", { status: response.status });
    throw new ServerError((data && data.error) || String(response.status), message);
  }
  return data;
}

/** What this browser remembers of a room: its seat token, name and host token. */
export const memory = {
  seat(code) {
    try {
      return JSON.parse(localStorage.getItem(`unokit.seat.${code}`) || "null");
    } catch (err) {
      return null;
    }
  },
  setSeat(code, value) {
    if (value === null) localStorage.removeItem(`unokit.seat.${code}`);
    else localStorage.setItem(`unokit.seat.${code}`, JSON.stringify(value));
  },
  host(code) {
    return localStorage.getItem(`unokit.host.${code}`);
  },
  setHost(code, token) {
    localStorage.setItem(`unokit.host.${code}`, token);
  },
  name() {
    return localStorage.getItem("unokit.name") || "";
  },
  setName(name) {
    localStorage.setItem("unokit.name", name);
  },
};

/**
 * One room's websocket. Callbacks: onWelcome(msg), onState(msg), onRoom(msg), onError(msg),
 * onStatus(text), onClosed(reason). act() and host() send at most one request at a time: a
 * second one while the first is unanswered is dropped, so a double click never acts twice.
 */
export class RoomConnection {
  constructor(code, { role = "player", name = "", token = null, hostToken = null }, handlers) {
    this.code = code;
    this.role = role;
    this.name = name;
    this.token = token;
    this.hostToken = hostToken;
    this.handlers = handlers;
    this.version = null;
    this.decision = null;
    this.seat = null;
    this.isHost = false;
    this.nextId = 1;
    this.inFlight = null;
    this.retry = 0;
    this.closedForGood = false;
    this.ws = null;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.handlers.onStatus(this.retry ? t("web.status.reconnecting") : t("web.status.connecting"), "connecting");
    ws.onopen = () => {
      const hello = { type: "hello", protocol: PROTOCOL, room: this.code, role: this.role, id: this.nextId++ };
      if (this.token) hello.token = this.token;
      else if (this.role === "player") hello.name = this.name;
      if (this.hostToken) hello.host_token = this.hostToken;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.settle();
      if (this.closedForGood) return;
      this.retry += 1;
      const delay = Math.min(5000, 250 * 2 ** Math.min(this.retry, 5));
      this.handlers.onStatus(t("web.status.lost", { seconds: Math.round(delay / 100) / 10 }), "lost");
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  close() {
    this.closedForGood = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.retry = 0;
      this.seat = msg.seat;
      this.isHost = Boolean(msg.host);
      if (msg.token) this.token = msg.token;
      this.handlers.onStatus(t("web.status.connected"), "connected");
      this.handlers.onWelcome(msg);
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
      if (msg.code === "bad_token" && this.token) {
        // The seat is gone (kicked, or the room was made again): forget it.
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

  send(message) {
    if (this.inFlight !== null || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    const id = this.nextId++;
    this.inFlight = id;
    this.handlers.onBusy(true);
    this.ws.send(JSON.stringify({ ...message, id }));
    return true;
  }

  /** Take an action (its text from legal_actions) at the current state version. */
  act(action) {
    const message = { type: "action", action, version: this.version, token: this.token };
    if (this.decision) message.decision = this.decision;
    return this.send(message);
  }

  /** A host command: add_bot, kick, replace, start, continue, close. */
  host(command, extra = {}) {
    return this.send({ type: "host", command, host_token: this.hostToken, version: this.version, ...extra });
  }

  leave() {
    return this.send({ type: "leave", token: this.token });
  }

  /** The player is here again: the stand-in bot gives the seat back. */
  back() {
    return this.send({ type: "back", token: this.token });
  }
}
