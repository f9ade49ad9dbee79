/** The only place insp-sync reads its environment. */
export interface CliEnv {
  url: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

export function readCliEnv(source: Record<string, string | undefined> = process.env): CliEnv {
  const get = (k: string) => (source[k]?.trim() ? source[k]!.trim() : undefined);
  return { url: get("INSP_URL"), clientId: get("INSP_CLIENT_ID"), clientSecret: get("INSP_CLIENT_SECRET") };
}
