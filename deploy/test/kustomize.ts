import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

/**
 * A renderer for the few kustomize features deploy/kubernetes uses, so the tests need no
 * kubectl: `resources` (files and folders with their own kustomization), `namespace`, `labels`
 * (metadata, and pod templates with includeTemplates) and `images`, applied in kustomize's
 * order (namespace, then labels, then images). Anything else in a kustomization.yaml throws:
 * the manifest test compares this output with `kubectl kustomize` wherever kubectl exists,
 * and a feature this file does not know must not be guessed at.
 */

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
} & Record<string, unknown>;

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
}

const KNOWN = new Set(["apiVersion", "kind", "resources", "namespace", "labels", "images"]);

/** Kinds without a namespace (of those a deployment like ours could hold). */
const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "PersistentVolume",
  "StorageClass",
  "PriorityClass",
  "IngressClass",
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "ClusterTriggerAuthentication",
]);

/** Where kustomize's labels transformer puts template labels when includeTemplates is set. */
const TEMPLATE_PATHS: Record<string, string[][]> = {
  Deployment: [["spec", "template", "metadata", "labels"]],
  ReplicaSet: [["spec", "template", "metadata", "labels"]],
  DaemonSet: [["spec", "template", "metadata", "labels"]],
  StatefulSet: [["spec", "template", "metadata", "labels"]],
  ReplicationController: [["spec", "template", "metadata", "labels"]],
  Job: [["spec", "template", "metadata", "labels"]],
  CronJob: [
    ["spec", "jobTemplate", "metadata", "labels"],
    ["spec", "jobTemplate", "spec", "template", "metadata", "labels"],
  ],
};

export function parseYamlDocuments(text: string, source: string): unknown[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length) throw new Error(`${source}: ${doc.errors[0]!.message}`);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

export function readKustomization(dir: string): Kustomization {
  const file = ["kustomization.yaml", "kustomization.yml", "Kustomization"].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const [k] = parseYamlDocuments(readFileSync(file, "utf8"), file) as Kustomization[];
  const unknown = Object.keys(k ?? {}).filter((key) => !KNOWN.has(key));
  if (unknown.length) throw new Error(`${file}: kustomize features this renderer does not know: ${unknown.join(", ")}`);
  return k ?? {};
}

/** Renders the kustomization in `dir` as `kubectl kustomize dir` would (for the features above). */
export function renderKustomization(dir: string): Manifest[] {
  const k = readKustomization(dir);
  let out: Manifest[] = [];
  for (const entry of k.resources ?? []) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) throw new Error(`${dir}: remote resource ${entry} is not supported`);
    const path = resolve(dir, entry);
    if (statSync(path).isDirectory()) out.push(...renderKustomization(path));
    else out.push(...(parseYamlDocuments(readFileSync(path, "utf8"), path) as Manifest[]));
  }
  out = out.map((m) => structuredClone(m));
  if (k.namespace) for (const m of out) if (!CLUSTER_SCOPED.has(m.kind)) m.metadata.namespace = k.namespace;
  for (const l of k.labels ?? []) {
    if (l.includeSelectors) throw new Error(`${dir}: labels with includeSelectors are not supported`);
    for (const m of out) {
      m.metadata.labels = { ...m.metadata.labels, ...l.pairs };
      if (!l.includeTemplates) continue;
      for (const path of TEMPLATE_PATHS[m.kind] ?? []) {
        const parent = ensurePath(m, path.slice(0, -1));
        const key = path[path.length - 1]!;
        parent[key] = { ...(parent[key] as Record<string, string> | undefined), ...l.pairs };
      }
    }
  }
  for (const image of k.images ?? []) for (const m of out) setImages(m, image);
  checkUnique(out, dir);
  return out;
}

function ensurePath(root: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let node = root;
  for (const key of path) {
    if (node[key] === undefined || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  return node;
}

/** `registry:5000/team/app:tag@sha256:...` → name `registry:5000/team/app`. */
export function imageName(image: string): string {
  const noDigest = image.split("@")[0]!;
  const colon = noDigest.lastIndexOf(":");
  return colon > noDigest.lastIndexOf("/") ? noDigest.slice(0, colon) : noDigest;
}

/** kustomize's images transformer: every container and init container, wherever it is. */
function setImages(node: unknown, image: NonNullable<Kustomization["images"]>[number]): void {
  if (Array.isArray(node)) return node.forEach((n) => setImages(n, image));
  if (!node || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if ((key === "containers" || key === "initContainers") && Array.isArray(value)) {
      for (const c of value as { image?: string }[]) {
        if (!c.image || imageName(c.image) !== image.name) continue;
        const [withoutDigest, oldDigest] = c.image.split("@") as [string, string | undefined];
        const oldTag = withoutDigest.length > imageName(c.image).length ? withoutDigest.slice(imageName(c.image).length + 1) : undefined;
        const name = image.newName ?? image.name;
        if (image.digest) c.image = `${name}@${image.digest}`;
        else if (image.newTag) c.image = `${name}:${image.newTag}`;
        else c.image = `${name}${oldTag ? `:${oldTag}` : ""}${oldDigest ? `@${oldDigest}` : ""}`;
      }
    } else setImages(value, image);
  }
}

function checkUnique(ms: Manifest[], dir: string): void {
  const seen = new Set<string>();
  for (const m of ms) {
    const id = manifestId(m);
    if (seen.has(id)) throw new Error(`${dir}: ${id} is declared twice`);
    seen.add(id);
  }
}

/** apiVersion group, kind, namespace and name: what tells two manifests apart. */
export function manifestId(m: Manifest): string {
  const group = m.apiVersion.includes("/") ? m.apiVersion.split("/")[0] : "";
  return `${group}/${m.kind}/${m.metadata.namespace ?? ""}/${m.metadata.name}`;
}

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
