import { defineConfig } from "drizzle-kit";

// Run from the repository root (`npm run db:generate`): drizzle-kit resolves these paths
// against the working directory (PITFALLS.md).
export default defineConfig({
  dialect: "postgresql",
  schema: "./packages/db/src/schema/index.ts",
  out: "./drizzle",
});
