// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "drizzle/**", "bench/results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        URL: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      // process.env is read in one place per app (its env.ts), so every setting is validated
      // at start-up and listed in one file.
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read configuration through the app's env module." }],
    },
  },
  {
    // A function that does not fit on a screen or two hides its phases: split it into named ones.
    // Blank lines and comments do not count.
    files: ["apps/*/src/**/*.ts", "packages/*/src/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true }] },
    // No rule is switched off in a comment: an exception is written here, where it is seen.
    linterOptions: { noInlineConfig: true, reportUnusedInlineConfigs: "error" },
  },
  {
    // The embedded Redis is looked for on PATH, which says where programs are: no setting of ours.
    files: ["packages/local-servers/src/redis.ts"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    files: ["**/env.ts", "**/test/**", "packages/testing/**", "bench/**", "vitest.config.ts", "packages/db/drizzle.config.ts", "apps/admin/src/start-all.ts"],
    // Tests read JSON bodies of many shapes; `any` there keeps assertions readable.
    rules: { "no-restricted-properties": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The employee sync's rules and planner are pure (no database, no queue), so they are
    // unit-tested without either: run.ts and sql/ do the I/O around them.
    files: ["packages/core/src/employees/plan.ts", "packages/core/src/employees/rules.ts", "packages/core/src/employees/types.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@insp/db", "@insp/db/*", "@insp/queue", "drizzle-orm", "postgres", "ioredis", "./sql/*", "./run.ts"],
              message: "The planner is pure: I/O belongs in run.ts and sql/.",
            },
          ],
        },
      ],
    },
  },
  {
    // The guides' helper scripts are run by a reader's shell, not by an app: they read the one
    // variable the guides name (DEMO_CREDENTIALS_FILE) directly.
    files: ["docs/examples/**"],
    rules: { "no-restricted-properties": "off" },
  },
  // Layout is prettier's (npm run format): no eslint rule may disagree with it.
  prettier,
);
