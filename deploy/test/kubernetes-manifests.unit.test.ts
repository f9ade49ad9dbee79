import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScaledObject, TriggerAuthentication } from "@kubernetes-models/keda/keda.sh/v1alpha1";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Job } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from "kubernetes-models/v1";
import { type Manifest, imageName, manifestId, parseYamlDocuments, readKustomization, renderKustomization, repositoryRoot } from "./kustomize.ts";

/**
 * deploy/kubernetes renders (base and the production overlay), every document is valid against
 * the Kubernetes and KEDA schemas (kubernetes-models, @kubernetes-models/keda), the renderer
 * agrees with `kubectl kustomize` where kubectl exists, and the manifests hang together:
 * selectors, named ports, references between objects, the pods' security and resources.
 * What the manifests say about the code (ports, paths, queues, settings) is checked in
 * kubernetes-code.unit.test.ts.
 */

const BASE = join(repositoryRoot, "deploy/kubernetes/base");
const PRODUCTION = join(repositoryRoot, "deploy/kubernetes/overlays/production");

interface Validatable {
  validate(): void;
}
const MODELS: Record<string, new (data: never) => Validatable> = {
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "v1/ServiceAccount": ServiceAccount,
  "apps/v1/Deployment": Deployment,
  "batch/v1/Job": Job,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
  "keda.sh/v1alpha1/TriggerAuthentication": TriggerAuthentication,
};

/** Builds the model of a parsed manifest and validates it; the message names the manifest. */
function validateManifest(m: Manifest): void {
  const Model = MODELS[`${m.apiVersion}/${m.kind}`];
  if (!Model) throw new Error(`${manifestId(m)}: no schema model for ${m.apiVersion} ${m.kind}`);
  try {
    new Model(m as never).validate();
  } catch (err) {
    throw new Error(`${manifestId(m)} is invalid: ${(err as Error).message}`);
  }
}

type Container = {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
};
type Probe = { httpGet?: { path: string; port: string | number } };
type PodSpec = {
  containers: Container[];
  securityContext?: Record<string, unknown>;
  volumes?: { name: string }[];
  topologySpreadConstraints?: { labelSelector?: { matchLabels?: Record<string, string> } }[];
  automountServiceAccountToken?: boolean;
};
type PodTemplate = { metadata?: { labels?: Record<string, string> }; spec: PodSpec };

const byKind = (ms: Manifest[], kind: string) => ms.filter((m) => m.kind === kind);
const spec = (m: Manifest) => m.spec as Record<string, unknown>;
const template = (m: Manifest) => spec(m).template as PodTemplate;
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const workloads = (ms: Manifest[]) => [...byKind(ms, "Deployment"), ...byKind(ms, "Job")];

/** Memory quantities in bytes (the suffixes these manifests use). */
function bytes(q: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(q);
  if (!m) throw new Error(`unexpected quantity ${q}`);
  return Number(m[1]) * { "": 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[m[2] ?? ""]!;
}

const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
const hasKubectl = !kubectl.error && kubectl.status === 0;
// kubectl is not something the README installs: without it, only the comparison is skipped.
if (!hasKubectl)
  console.warn("kubernetes-manifests: the comparison with `kubectl kustomize` is skipped, no kubectl on PATH (the manifests are still rendered and checked)");

describe.each([
  ["base", BASE],
  ["production overlay", PRODUCTION],
])("deploy/kubernetes %s", (_label, dir) => {
  const rendered = renderKustomization(dir);

  it("renders documents that are valid Kubernetes and KEDA objects", () => {
    expect(rendered.length).toBeGreaterThan(5);
    for (const m of rendered) validateManifest(m);
  });

  it.skipIf(!hasKubectl)("renders exactly what `kubectl kustomize` renders", () => {
    const out = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
    expect(out.status, out.stderr).toBe(0);
    const theirs = parseYamlDocuments(out.stdout, `kubectl kustomize ${dir}`) as Manifest[];
    const sorted = (ms: Manifest[]) => new Map([...ms].sort((a, b) => manifestId(a).localeCompare(manifestId(b))).map((m) => [manifestId(m), m]));
    expect([...sorted(rendered).keys()]).toEqual([...sorted(theirs).keys()]);
    for (const [id, m] of sorted(theirs)) expect(sorted(rendered).get(id), id).toEqual(m);
  });

  it("ships no Secret: credentials are created outside the kustomization", () => {
    expect(byKind(rendered, "Secret")).toEqual([]);
  });

  it("has every workload's selector match its own pods, and nobody else's", () => {
    const deployments = byKind(rendered, "Deployment");
    for (const d of deployments) {
      const selector = (spec(d).selector as { matchLabels: Record<string, string> }).matchLabels;
      expect(matches(selector, template(d).metadata?.labels), d.metadata.name).toBe(true);
      const others = deployments.filter((o) => o !== d && matches(selector, template(o).metadata?.labels));
      expect(
        others.map((o) => o.metadata.name),
        d.metadata.name,
      ).toEqual([]);
      for (const t of template(d).spec.topologySpreadConstraints ?? []) expect(matches(t.labelSelector?.matchLabels, template(d).metadata?.labels)).toBe(true);
    }
  });

  it("points Services, budgets and autoscalers at a Deployment of its own, by names and ports that exist", () => {
    const deployments = byKind(rendered, "Deployment");
    const podsOf = (selector: Record<string, string> | undefined) => deployments.filter((d) => matches(selector, template(d).metadata?.labels));
    for (const s of byKind(rendered, "Service")) {
      const [d, ...more] = podsOf(spec(s).selector as Record<string, string>);
      expect(d, `pods of Service ${s.metadata.name}`).toBeDefined();
      expect(more).toEqual([]);
      const portNames = template(d!)
        .spec.containers.flatMap((c) => c.ports ?? [])
        .map((p) => p.name);
      for (const p of spec(s).ports as { targetPort: string }[]) expect(portNames, `Service ${s.metadata.name}`).toContain(p.targetPort);
    }
    for (const pdb of byKind(rendered, "PodDisruptionBudget"))
      expect(podsOf((spec(pdb).selector as { matchLabels: Record<string, string> }).matchLabels), `PDB ${pdb.metadata.name}`).toHaveLength(1);
    const scaled = [...byKind(rendered, "HorizontalPodAutoscaler"), ...byKind(rendered, "ScaledObject")];
    for (const a of scaled) {
      const ref = spec(a).scaleTargetRef as { kind?: string; name: string };
      expect(ref.kind ?? "Deployment").toBe("Deployment");
      expect(
        deployments.map((d) => d.metadata.name),
        `${a.kind} ${a.metadata.name}`,
      ).toContain(ref.name);
    }
    // Each Deployment is scaled by exactly one autoscaler and sets no replica count of its own
    // (every apply would reset what the autoscaler chose).
    for (const d of deployments) {
      expect(
        scaled.filter((a) => (spec(a).scaleTargetRef as { name: string }).name === d.metadata.name),
        d.metadata.name,
      ).toHaveLength(1);
      expect(spec(d).replicas, d.metadata.name).toBeUndefined();
    }
    const auths = byKind(rendered, "TriggerAuthentication").map((t) => t.metadata.name);
    for (const so of byKind(rendered, "ScaledObject")) {
      for (const t of spec(so).triggers as { authenticationRef?: { name: string } }[])
        if (t.authenticationRef) expect(auths).toContain(t.authenticationRef.name);
    }
  });

  it("gives every container named probe ports, ConfigMaps that exist, and requests and limits", () => {
    const configMaps = byKind(rendered, "ConfigMap").map((c) => c.metadata.name);
    for (const w of workloads(rendered)) {
      for (const c of template(w).spec.containers) {
        const where = `${w.metadata.name}/${c.name}`;
        const portNames = (c.ports ?? []).map((p) => p.name);
        for (const probe of [c.readinessProbe, c.livenessProbe]) if (probe) expect(portNames, where).toContain(probe.httpGet?.port);
        if (w.kind === "Deployment") {
          expect(c.readinessProbe?.httpGet, `${where} readiness`).toBeDefined();
          expect(c.livenessProbe?.httpGet, `${where} liveness`).toBeDefined();
        }
        for (const from of c.envFrom ?? []) if (from.configMapRef && !from.configMapRef.optional) expect(configMaps, where).toContain(from.configMapRef.name);
        const { requests, limits } = c.resources ?? {};
        expect(requests?.cpu, `${where} cpu request`).toBeDefined();
        expect(requests?.memory, `${where} memory request`).toBeDefined();
        expect(limits?.memory, `${where} memory limit`).toBeDefined();
        expect(bytes(limits!.memory!), where).toBeGreaterThanOrEqual(bytes(requests!.memory!));
        const mounts = (c.volumeMounts ?? []).map((v) => v.name);
        const volumes = (template(w).spec.volumes ?? []).map((v) => v.name);
        for (const v of mounts) expect(volumes, where).toContain(v);
      }
    }
  });

  it("runs every pod as the image's non-root user, read-only, without privileges or a service account token", () => {
    // The Dockerfile's runtime stage ends as USER node, on the official node image, where
    // `node` is uid 1000; runAsNonRoot needs the number, since the image names the user.
    const dockerfile = readFileSync(join(repositoryRoot, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^FROM node:\S+ AS runtime$/m);
    expect(
      dockerfile
        .trimEnd()
        .split("\n")
        .filter((l) => l.startsWith("USER "))
        .at(-1),
    ).toBe("USER node");
    for (const w of workloads(rendered)) {
      const pod = template(w).spec;
      expect(pod.securityContext, w.metadata.name).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        seccompProfile: { type: "RuntimeDefault" },
      });
      expect(pod.automountServiceAccountToken, w.metadata.name).toBe(false);
      for (const c of pod.containers)
        expect(c.securityContext, `${w.metadata.name}/${c.name}`).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ["ALL"] },
        });
    }
  });

  it("runs every container from the one image the Dockerfile builds, with an entry point it ships", () => {
    const images = new Set(workloads(rendered).flatMap((w) => template(w).spec.containers.map((c) => c.image)));
    expect(images.size).toBe(1);
    const dockerfile = readFileSync(join(repositoryRoot, "Dockerfile"), "utf8");
    for (const w of workloads(rendered)) {
      for (const c of template(w).spec.containers) {
        const [node, entry] = c.command ?? [];
        expect(node).toBe("node");
        const app = /^(apps\/[a-z]+)\/dist\/main\.js$/.exec(entry ?? "");
        expect(app, `${w.metadata.name} runs ${entry}`).not.toBeNull();
        expect(dockerfile).toContain(`COPY --from=build /app/${app![1]}/dist ${app![1]}/dist`);
      }
    }
  });
});

describe("the production overlay", () => {
  const rendered = renderKustomization(PRODUCTION);
  const overlay = readKustomization(PRODUCTION);
  const namespace = byKind(rendered, "Namespace")[0];

  it("puts everything into its own namespace, held to the restricted Pod Security Standard", () => {
    expect(namespace?.metadata.name).toBe(overlay.namespace);
    expect(namespace?.metadata.labels?.["pod-security.kubernetes.io/enforce"]).toBe("restricted");
    for (const m of rendered) if (m.kind !== "Namespace") expect(m.metadata.namespace, manifestId(m)).toBe(overlay.namespace);
  });

  it("runs the release's image from a registry, never the base's bare placeholder name", () => {
    const [image] = overlay.images ?? [];
    for (const w of workloads(rendered)) {
      for (const c of template(w).spec.containers) {
        expect(imageName(c.image)).toBe(image?.newName);
        expect(c.image).toMatch(/:[\w.-]+$|@sha256:[0-9a-f]{64}$/);
      }
    }
  });

  it("ships the overrides ConfigMap the containers read after the base's", () => {
    const names = byKind(rendered, "ConfigMap").map((c) => c.metadata.name);
    for (const w of workloads(rendered)) {
      for (const c of template(w).spec.containers) for (const from of c.envFrom ?? []) if (from.configMapRef) expect(names).toContain(from.configMapRef.name);
    }
  });

  it("has a Secret example that is a valid Secret with every key the manifests require, and git ignores its filled-in copy", () => {
    const [example] = parseYamlDocuments(readFileSync(join(PRODUCTION, "secret.example.yaml"), "utf8"), "secret.example.yaml") as Manifest[];
    validateManifest(example!);
    expect(example!.kind).toBe("Secret");
    expect(example!.metadata.namespace).toBe(overlay.namespace);
    const data = example!.stringData as Record<string, string>;
    // Placeholders only: a password to change, or a host under example.
    for (const [key, value] of Object.entries(data)) expect(value, key).toMatch(/CHANGE_ME|\.example\./);
    const refs = workloads(rendered).flatMap((w) =>
      template(w).spec.containers.flatMap((c) => (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : []))),
    );
    const keda = byKind(rendered, "TriggerAuthentication").flatMap((t) =>
      (spec(t).secretTargetRef as { name: string; key: string }[]).map((r) => ({ ...r, optional: false })),
    );
    for (const ref of [...refs, ...keda]) {
      expect(ref.name).toBe(example!.metadata.name);
      if (!ref.optional) expect(Object.keys(data), `required secret key ${ref.key}`).toContain(ref.key);
    }
    expect(readFileSync(join(PRODUCTION, ".gitignore"), "utf8")).toMatch(/^secret\.yaml$/m);
  });
});
