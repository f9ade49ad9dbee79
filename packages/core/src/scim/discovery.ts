import { ScimError, scim } from "./protocol.ts";

/**
 * The discovery endpoints (RFC 7644 section 4), the same for every organization: scimmy
 * describes the service from its configuration (protocol.ts) and its declared resources; each
 * answer gets its meta.location under `baseUrl`.
 */

const located = (resource: Record<string, unknown>, location: string) => ({ ...resource, meta: { ...(resource.meta as object), location } });

export async function serviceProviderConfig(baseUrl: string): Promise<Record<string, unknown>> {
  const S = scim();
  return located(JSON.parse(JSON.stringify(await new S.Resources.ServiceProviderConfig().read())), `${baseUrl}/ServiceProviderConfig`);
}

/** /ResourceTypes, or one of them (404 for an unknown name). */
export async function resourceTypes(baseUrl: string, name?: string): Promise<Record<string, unknown>> {
  const S = scim();
  if (name !== undefined) {
    const all = JSON.parse(JSON.stringify(await new S.Resources.ResourceType().read())) as { Resources: Record<string, unknown>[] };
    const one = all.Resources.find((r) => r.id === name);
    if (!one) throw new ScimError(404, undefined, `ResourceType ${name} not found`);
    return located(one, `${baseUrl}/ResourceTypes/${name}`);
  }
  const list = JSON.parse(JSON.stringify(await new S.Resources.ResourceType().read())) as { Resources: Record<string, unknown>[] };
  return { ...list, itemsPerPage: list.Resources.length, Resources: list.Resources.map((r) => located(r, `${baseUrl}/ResourceTypes/${String(r.id)}`)) };
}

/** /Schemas, or one of them by its URN (404 for an unknown one). */
export async function schemas(baseUrl: string, id?: string): Promise<Record<string, unknown>> {
  const S = scim();
  const list = JSON.parse(JSON.stringify(await new S.Resources.Schema().read())) as { Resources: Record<string, unknown>[] };
  if (id !== undefined) {
    const one = list.Resources.find((r) => r.id === id);
    if (!one) throw new ScimError(404, undefined, `Schema ${id} not found`);
    return located(one, `${baseUrl}/Schemas/${id}`);
  }
  // itemsPerPage is the page's size (scimmy writes its default page size there).
  return { ...list, itemsPerPage: list.Resources.length, Resources: list.Resources.map((r) => located(r, `${baseUrl}/Schemas/${String(r.id)}`)) };
}
