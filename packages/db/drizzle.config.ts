import { defineConfig } from "drizzle-kit";

// Run from the repository root (`npm run db:generate`): drizzle-kit resolves these paths
// against the working directory, not against this file.
export default defineConfig({
  dialect: "postgresql",
  schema: "./packages/db/src/schema/index.ts",
  out: "./drizzle",
});
