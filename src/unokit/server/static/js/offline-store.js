// The offline games kept in this browser (IndexedDB "unokit-offline", store "games"): each the
// offline room's log as its worker keeps it (server/local.py, LocalRoom.kept), by the room's
// code, with the time of its last change. Read by the worker, to rebuild a game after the tab
// closed, and by the page, for My games.

const DB = "unokit-offline";
const STORE = "games";

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "code" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Run one request on the store; its result.
 * @template T
 * @param {"readonly" | "readwrite"} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>}
 */
async function within(mode, work) {
  const db = await open();
  return /** @type {Promise<T>} */ (new Promise((resolve, reject) => {
    const request = work(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  }).finally(() => db.close()));
}

/**
 * Keep the room `code`'s text (LocalRoom.kept).
 * @param {string} code
 * @param {string} text
 */
export function keepGame(code, text) {
  return within("readwrite", (store) => store.put({ code, text, updated: Date.now() }));
}

/**
 * The kept text of room `code`, or undefined.
 * @param {string} code
 * @returns {Promise<string | undefined>}
 */
export async function keptGame(code) {
  const row = await within("readonly", (store) => store.get(code));
  return row ? row.text : undefined;
}

/** Every kept game, newest first: {code, updated, kept (the parsed text)}. */
export async function keptGames() {
  /** @type {{code: string, updated: number, text: string}[]} */
  const rows = await within("readonly", (store) => store.getAll());
  return rows.map((row) => ({ code: row.code, updated: row.updated, kept: JSON.parse(row.text) }))
    .sort((a, b) => b.updated - a.updated);
}
