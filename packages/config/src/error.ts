/** Settings that cannot work: each problem names its variable; the apps print them and exit 78 (EX_CONFIG). */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}
