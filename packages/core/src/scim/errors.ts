export type ScimType =
  "uniqueness" | "tooMany" | "invalidFilter" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue" | "invalidVers" | "sensitive";

/** An error the SCIM routes answer as `{schemas: [Error], status, scimType?, detail}`. */
export class ScimError extends Error {
  constructor(
    public readonly status: number,
    public readonly scimType: ScimType | undefined,
    detail: string,
  ) {
    super(detail);
    this.name = "ScimError";
  }
}

/** scimmy's own errors (its Types.Error), and the TypeError its schemas throw on a bad resource, as ScimError. */
export function asScimError(err: unknown): ScimError | null {
  if (err instanceof ScimError) return err;
  const e = err as { status?: unknown; scimType?: unknown; message?: unknown };
  if (err instanceof Error && typeof e.status === "number" && err.name === "SCIMError")
    return new ScimError(e.status, e.scimType as ScimType | undefined, String(e.message));
  if (err instanceof TypeError) return new ScimError(400, "invalidValue", err.message);
  return null;
}
