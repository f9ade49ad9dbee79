/** Settings that cannot work: each problem names its variable; the apps print them and exit 78 (EX_CONFIG). */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * For an app's `main().catch(...)`: settings that cannot work (a ConfigError, from the env schema or
 * a port that cannot be listened on) print their message and exit 78; anything else that stops the
 * start prints one line naming the app and exits 1. No stack trace either way.
 */
export function exitOnStartFailure(app: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    console.error(`${app} failed to start:`, err instanceof Error ? err.message : err);
    process.exit(1);
  };
}
