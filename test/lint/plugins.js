// typescript-eslint and its TypeScript 6 are installed in this workspace (the repository's
// typescript@7 is the native compiler, without the API typescript-eslint reads), so the root
// eslint.config.js imports them from here, where they resolve to each other.
export { default as js } from "@eslint/js";
export { default as tseslint } from "typescript-eslint";
