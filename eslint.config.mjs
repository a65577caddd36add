// ESLint's settings for the browser client (src/unokit/server/static/js and the service worker):
// the recommended rules, plus a line length of 140 characters. `make lint` runs it.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/unokit/server/static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["src/unokit/server/static/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
  },
  {
    rules: {
      "max-len": ["error", { code: 140, ignoreUrls: true }],
      // A page function takes (app, catalog) whether it reads both or not, and a catch may
      // name the error it ignores.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
];
