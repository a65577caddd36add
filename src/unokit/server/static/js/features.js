// The server's features (GET /api/features): a deployment may run without some of them
// (`unokit serve --without NAME`, docs/server.md "Features"), and the page then offers none of
// their doors. Asked once a page, before the first route is drawn.

import { api } from "./net.js";

/** @type {Set<string> | null} the names of the features the server runs; null: not known */
let running = null;

/** Ask the server which features it runs (once; a server that cannot say runs them all). */
export async function loadFeatures() {
  if (running !== null) return;
  try {
    /** @type {{features: string[]}} */
    const found = await api("/api/features");
    running = new Set(found.features);
  } catch (err) {
    running = null; // offline, or a server from before features: every door is shown
  }
}

/**
 * Whether the server runs the feature `name` ("daily", "ratings", "reviews", "standings", ...).
 * @param {string} name
 */
export function runs(name) {
  return running === null || running.has(name);
}
