// ESLint for the repository's own code: typescript-eslint's recommended type-checked rules, typed
// by the root tsconfig.json (npm run lint).
import { js, tseslint } from "./test/lint/plugins.js";

export default tseslint.config(
  {
    ignores: [
      "**/dist/",
      "**/node_modules/",
      // The tests' git-ignored scratch folders (generated code of their own schemas).
      ".tmp/",
      "coverage/",
      "test-output/",
      // Machine output: what rcp-gen writes, and ajv's precompiled meta-schema checkers.
      "generated/",
      "generator/src/load/meta-schema/checkers.ts",
      // A user's project the package tests copy out of the repository and build there.
      "test/package/user-project/",
      // Template files rcp-gen init copies into a new project, typed by that project's tsconfig.
      "generator/templates/",
    ],
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Inline `type` markers, as the code writes them: `import { type A, b } from "..."`.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `const { dropped: _dropped, ...rest } = value` is how the code leaves a key out of a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
);
