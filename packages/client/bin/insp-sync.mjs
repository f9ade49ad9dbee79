#!/usr/bin/env node
// The package's command: the sources are TypeScript, run through tsx like the rest of the repository.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
