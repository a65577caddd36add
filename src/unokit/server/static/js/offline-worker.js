// The offline room's worker: Pyodide (CPython in WebAssembly, from the npm package the server
// serves at /offline/pyodide/) with the unokit engine (/offline/unokit.zip) runs the room of
// server/local.py, so the page never freezes while a bot thinks. The page posts
// {type: "create", request} or {type: "open", code}, then the client messages of the protocol
// as text ({type: "send", text}); the worker posts {type: "opened", code} or
// {type: "refused", code}, then the room's messages as text ({type: "message", text}). A
// {type: "bench", seconds, decisions} message is answered with the measures of
// server/localbench.py (scripts/bench_offline.py).

import { keepGame, keptGame } from "./offline-store.js";

const PYODIDE = "/offline/pyodide/";

/** How long each step of the start took, in ms (scripts/bench_offline.py prints them). */
/** @type {Record<string, number>} */
const took = {};

async function start() {
  let at = performance.now();
  /** @param {string} name */
  const step = (name) => {
    const now = performance.now();
    took[name] = Math.round(now - at);
    at = now;
  };
  const { loadPyodide } = await import(`${PYODIDE}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: PYODIDE });
  step("pyodide");
  const engine = await fetch("/offline/unokit.zip");
  if (!engine.ok) throw new Error(`the engine answered ${engine.status}`);
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await engine.arrayBuffer(), "zip", { extractDir: sitePackages });
  step("engine");
  const local = pyodide.pyimport("unokit.server.local");
  step("imports");
  return { pyodide, local };
}

const ready = start();
// The room is a Python object of server/local.py (LocalRoom) seen through Pyodide's proxy: any,
// since TypeScript cannot see its Python type.
/** @type {any} */
let room = null;
let queue = Promise.resolve();

/** @param {string} text */
function send(text) {
  postMessage({ type: "message", text });
}

/**
 * One of the page's messages (see the top of this file).
 * @param {{type: "create", request: unknown} | {type: "open", code: string} | {type: "send", text: string}
 *   | {type: "bench", seconds: number, decisions: number}} data
 */
async function handle(data) {
  const { pyodide, local } = await ready;
  if (data.type === "create" || data.type === "open") {
    if (room) room.stop();
    let text = null;
    if (data.type === "open") {
      text = await keptGame(data.code);
      if (text === undefined) {
        postMessage({ type: "refused", code: "no_room" });
        return;
      }
    }
    /** @param {string} kept */
    const saved = (kept) => { keepGame(JSON.parse(kept).code, kept); };
    const answer = JSON.parse(local.open_room(data.type === "create" ? JSON.stringify(data.request) : text, data.type, send, saved));
    if (answer.error) {
      postMessage({ type: "refused", code: answer.error });
      return;
    }
    room = local.ROOMS.get(answer.code);
    postMessage({ type: "opened", code: answer.code });
  } else if (data.type === "send" && room) {
    await room.receive(data.text);
  } else if (data.type === "bench") {
    // scripts/bench_offline.py: the engine's decisions a second and each level's decision time, here.
    const bench = pyodide.pyimport("unokit.server.localbench");
    const engine = JSON.parse(bench.engine(data.seconds));
    const bots = JSON.parse(bench.bots(data.decisions));
    postMessage({ type: "bench", engine, bots, heap: pyodide._module.HEAP8.length });
  }
}

self.onmessage = (event) => {
  // One message at a time, in order, as the server's room queue takes them.
  queue = queue.then(() => handle(event.data)).catch((err) => postMessage({ type: "failed", message: String(err) }));
};
ready.then(() => postMessage({ type: "ready", took }), (err) => postMessage({ type: "failed", message: String(err) }));
