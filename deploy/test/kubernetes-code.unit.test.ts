import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { QueueKeys } from "bullmq";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  JOB_NAMES,
  Queues,
  enqueueDeliveries,
  enqueueExport,
  enqueueImport,
  enqueueMails,
  enqueueReport,
  enqueueSyncItems,
  queuePolicies,
  type JobName,
  type RedisClient,
} from "@insp/queue";
import { createRegistry, createServiceMetrics, httpDurationHistogram, jobMetrics, queueGauges, startMetricsServer } from "@insp/observability";
import { adminEnvShape, loadAdminEnv } from "../../apps/admin/src/env.ts";
import type { Deps } from "../../apps/api/src/deps.ts";
import { apiEnvShape, loadApiEnv } from "../../apps/api/src/env.ts";
import { healthRoutes } from "../../apps/api/src/routes/health/index.ts";
import type { WorkerDeps } from "../../apps/worker/src/deps.ts";
import { loadWorkerEnv, workerEnvShape } from "../../apps/worker/src/env.ts";
import { startHealthServer } from "../../apps/worker/src/health.ts";
import { type Manifest, parseYamlDocuments, renderKustomization, repositoryRoot } from "./kustomize.ts";

/**
 * What the manifests say about the code is what the code does: every container's settings
 * (ConfigMaps, literal values, the Secret example's keys) pass its app's env schema as in
 * production; ports, probe paths and the metrics path are the ones the processes serve (asked
 * of the real handlers); the KEDA trigger counts the Redis lists BullMQ puts our jobs in, under
 * the prefix the workers use; metric names exist; shutdown fits the grace periods.
 */

const PRODUCTION = join(repositoryRoot, "deploy/kubernetes/overlays/production");
const DOC = join(repositoryRoot, "docs/kubernetes.md");

type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } };
type Container = {
  name: string;
  command: string[];
  ports?: { name: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean } }[];
  env?: EnvVar[];
  readinessProbe?: { httpGet: { path: string; port: string } };
  livenessProbe?: { httpGet: { path: string; port: string } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: { name: string; mountPath: string }[];
};
type Workload = Manifest & {
  spec: { template: { metadata: { annotations?: Record<string, string> }; spec: { containers: Container[]; terminationGracePeriodSeconds?: number } } };
};
type App = "api" | "worker" | "admin";

const rendered = renderKustomization(PRODUCTION);
const [secretExample] = parseYamlDocuments(readFileSync(join(PRODUCTION, "secret.example.yaml"), "utf8"), "secret.example.yaml") as (Manifest & {
  stringData: Record<string, string>;
})[];
const secrets = secretExample!.stringData;
const configMaps = new Map(rendered.filter((m) => m.kind === "ConfigMap").map((m) => [m.metadata.name, (m.data ?? {}) as Record<string, string>]));
const workloads = rendered.filter((m) => m.kind === "Deployment" || m.kind === "Job") as Workload[];

/** The app a container runs, from its command (`node apps/<app>/dist/main.js ...`). */
const appOf = (c: Container) => /^apps\/(api|worker|admin)\/dist\/main\.js$/.exec(c.command[1] ?? "")?.[1] as App | undefined;
function containerOf(app: App): { workload: Workload; container: Container } {
  const found = workloads.flatMap((w) => w.spec.template.spec.containers.filter((c) => appOf(c) === app).map((container) => ({ workload: w, container })));
  expect(found, `containers running the ${app}`).toHaveLength(1);
  return found[0]!;
}

/** A container's environment as the kubelet builds it: ConfigMaps in order, then env (which wins); secrets from the example. */
function environment(c: Container, opts: { optionalSecrets: boolean } = { optionalSecrets: true }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    if (!from.configMapRef) continue;
    const data = configMaps.get(from.configMapRef.name);
    if (!data && !from.configMapRef.optional) throw new Error(`${c.name}: no ConfigMap ${from.configMapRef.name}`);
    Object.assign(env, data);
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    const ref = e.valueFrom?.secretKeyRef;
    if (ref?.optional && !opts.optionalSecrets) continue;
    if (ref && secrets[ref.key] !== undefined) env[e.name] = secrets[ref.key]!;
    else if (ref && !ref.optional) throw new Error(`${c.name}: the Secret example has no ${ref.key}`);
  }
  return env;
}

/** Names a container always gets: from its ConfigMaps (not optional), literal values and required secret keys. */
function requiredSources(c: Container): string[] {
  const fromMaps = (c.envFrom ?? []).flatMap((f) => (f.configMapRef && !f.configMapRef.optional ? Object.keys(configMaps.get(f.configMapRef.name) ?? {}) : []));
  return [
    ...fromMaps,
    ...(c.env ?? []).filter((e) => e.value !== undefined || (e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional)).map((e) => e.name),
  ];
}

const loaders = { api: loadApiEnv, worker: loadWorkerEnv, admin: loadAdminEnv };
const shapes: Record<App, Record<string, unknown>> = { api: apiEnvShape, worker: workerEnvShape, admin: adminEnvShape };
const api = containerOf("api");
const worker = containerOf("worker");
const admin = containerOf("admin");
const apiEnv = loadApiEnv(environment(api.container));
const workerEnv = loadWorkerEnv(environment(worker.container));

const port = (c: Container, name: string) => c.ports?.find((p) => p.name === name)?.containerPort;

async function get(portNumber: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${portNumber}${path}`);
  return { status: res.status, body: await res.text() };
}
const listening = (server: http.Server) =>
  new Promise<number>((resolve, reject) =>
    server.listening
      ? resolve((server.address() as AddressInfo).port)
      : server.once("listening", () => resolve((server.address() as AddressInfo).port)).once("error", reject),
  );
async function freePort(): Promise<number> {
  const s = http.createServer().listen(0, "127.0.0.1");
  const p = await listening(s);
  await new Promise((r) => s.close(r));
  return p;
}
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Postgres and Redis that answer, for the readiness checks; and a Postgres that does not. */
const up = {
  dbHandle: { sql: Object.assign(async () => [{ "?column?": 1 }], { poolStats: () => undefined }) },
  redis: { ping: async () => "PONG" },
};
const postgresDown = {
  ...up,
  dbHandle: { sql: Object.assign(async () => Promise.reject<{ "?column?": number }[]>(new Error("connection refused")), { poolStats: () => undefined }) },
};

/**
 * The probes against the real handler, served by `serve(deps)`: with Postgres and Redis up both
 * answer 200; with Postgres down the readiness path answers 503 (the pod leaves the Service)
 * and the liveness path still 200 (the pod is not restarted for a dependency's outage).
 */
async function checkProbes(c: Container, serve: (deps: typeof up) => Promise<number>): Promise<void> {
  const readiness = c.readinessProbe?.httpGet.path;
  const liveness = c.livenessProbe?.httpGet.path;
  expect(readiness && liveness).toBeTruthy();
  const healthy = await serve(up);
  expect((await get(healthy, readiness!)).status, `${readiness} with everything up`).toBe(200);
  expect((await get(healthy, liveness!)).status, `${liveness} with everything up`).toBe(200);
  expect((await get(healthy, "/no-such-probe")).status).toBe(404);
  const degraded = await serve(postgresDown);
  expect((await get(degraded, readiness!)).status, `${readiness} with Postgres down`).toBe(503);
  expect((await get(degraded, liveness!)).status, `${liveness} with Postgres down`).toBe(200);
}
const silentLogger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };

const ORG = "00000000-0000-4000-8000-000000000001";
const ID = "00000000-0000-4000-8000-000000000002";

/**
 * The jobs an enqueue helper adds: through the real Queues (payload checks included) down to
 * BullMQ's add and addBulk, caught there with the options BullMQ would get, the queue's default
 * job options (queuePolicies) included.
 */
async function jobsAddedBy(enqueue: (queues: Queues) => Promise<void>): Promise<{ queue: JobName; opts: Record<string, unknown> }[]> {
  // Each enqueue asks Redis for its organization's turn (packages/queue/src/fair.ts): answered here.
  const queues = new Queues({ insptaketurns: async () => 1 } as unknown as RedisClient, workerEnv.QUEUE_PREFIX);
  const added: { queue: JobName; opts: Record<string, unknown> }[] = [];
  vi.spyOn(queues, "queue").mockImplementation((name) => {
    const defaults = queuePolicies[name] as unknown as Record<string, unknown>;
    return {
      keys: { prioritized: `${workerEnv.QUEUE_PREFIX}:${name}:prioritized`, delayed: `${workerEnv.QUEUE_PREFIX}:${name}:delayed` },
      add: async (_n: string, _d: unknown, opts: Record<string, unknown> = {}) => void added.push({ queue: name, opts: { ...defaults, ...opts } }),
      addBulk: async (jobs: { opts?: Record<string, unknown> }[]) => void jobs.forEach((j) => added.push({ queue: name, opts: { ...defaults, ...j.opts } })),
    } as never;
  });
  await enqueue(queues);
  return added;
}

describe("the manifests and the code", () => {
  it("give each container settings its app accepts as in production, and no setting it does not read", () => {
    for (const app of ["api", "worker", "admin"] as const) {
      const { container } = containerOf(app);
      const env = environment(container);
      expect(() => loaders[app](env), app).not.toThrow();
      expect(loaders[app](env).NODE_ENV, app).toBe("production");
      for (const e of container.env ?? []) expect(Object.keys(shapes[app]), `${app} sets ${e.name}`).toContain(e.name);
    }
    // The shared ConfigMaps hold settings of the API or the workers (each reads its own).
    for (const [name, data] of configMaps)
      for (const key of Object.keys(data)) expect([...Object.keys(apiEnvShape), ...Object.keys(workerEnvShape)], `${name}: ${key}`).toContain(key);
  });

  it("start each app with only the Secret's required keys (every optional one left out)", () => {
    for (const app of ["api", "worker", "admin"] as const) {
      const { container } = containerOf(app);
      const minimal = environment(container, { optionalSecrets: false });
      expect(() => loaders[app](minimal), app).not.toThrow();
    }
    expect(requiredSources(worker.container)).toEqual(expect.arrayContaining(["DATABASE_URL", "REDIS_URL", "WEBHOOK_SECRET_KEY", "SMTP_URL"]));
    // Every process decrypts the same webhook secrets: one key of the Secret for all of them.
    const keyRefs = [api, worker, admin].map(({ container }) => container.env?.find((e) => e.name === "WEBHOOK_SECRET_KEY")?.valueFrom?.secretKeyRef?.key);
    expect(new Set(keyRefs)).toEqual(new Set(["WEBHOOK_SECRET_KEY"]));
  });

  it("use the API's PORT and METRICS_PORT for its ports, and the probe paths its health routes answer", async () => {
    const c = api.container;
    expect(port(c, "http")).toBe(apiEnv.PORT);
    expect(port(c, "metrics")).toBe(apiEnv.METRICS_PORT);
    expect(Number(api.workload.spec.template.metadata.annotations?.["prometheus.io/port"])).toBe(apiEnv.METRICS_PORT);
    await checkProbes(c, async (deps) => {
      const server = express()
        .use(healthRoutes({ ...deps, env: apiEnv } as unknown as Deps))
        .listen(0, "127.0.0.1");
      servers.push(server);
      return listening(server);
    });
  });

  it("use the worker's HEALTH_PORT and METRICS_PORT, and the probe paths its health server answers", async () => {
    const c = worker.container;
    expect(workerEnv.HEALTH_PORT).toBeGreaterThan(0);
    expect(port(c, "health")).toBe(workerEnv.HEALTH_PORT);
    expect(port(c, "metrics")).toBe(workerEnv.METRICS_PORT);
    expect(Number(worker.workload.spec.template.metadata.annotations?.["prometheus.io/port"])).toBe(workerEnv.METRICS_PORT);
    for (const probe of [c.readinessProbe, c.livenessProbe]) expect(probe?.httpGet.port).toBe("health");
    // The real health server, on a free port instead of the manifest's.
    await checkProbes(c, async (deps) => {
      const workerDeps = {
        ...deps,
        env: { ...workerEnv, HEALTH_PORT: await freePort() },
        logger: silentLogger,
        metrics: { registry: createRegistry("worker") },
      } as unknown as WorkerDeps;
      const server = (await startHealthServer(workerDeps, deps.redis as unknown as RedisClient, () => true))!;
      servers.push(server);
      return listening(server);
    });
  });

  it("keep a starting worker out of rotation: its readiness probe fails until its job workers run, its liveness probe passes", async () => {
    const c = worker.container;
    let started = false;
    const workerDeps = {
      ...up,
      env: { ...workerEnv, HEALTH_PORT: await freePort() },
      logger: silentLogger,
      metrics: { registry: createRegistry("worker") },
    } as unknown as WorkerDeps;
    const server = (await startHealthServer(workerDeps, up.redis as unknown as RedisClient, () => started))!;
    servers.push(server);
    const p = await listening(server);
    expect(await get(p, c.readinessProbe!.httpGet.path!)).toEqual({ status: 503, body: JSON.stringify({ status: "starting" }) });
    expect((await get(p, c.livenessProbe!.httpGet.path!)).status).toBe(200);
    started = true;
    expect((await get(p, c.readinessProbe!.httpGet.path!)).status).toBe(200);
  });

  it("scrape the path the metrics listener serves, with the queue gauge on it", async () => {
    for (const { workload } of [api, worker]) {
      const path = workload.spec.template.metadata.annotations?.["prometheus.io/path"];
      const registry = createRegistry("worker");
      queueGauges(registry, [{ name: "employee-sync", getJobCounts: async () => ({ waiting: 3 }) }]);
      const server = await startMetricsServer(registry, 0, "127.0.0.1", { port: "METRICS_PORT" }, () => {});
      servers.push(server);
      const res = await get(await listening(server), path ?? "(none)");
      expect(res.status, workload.metadata.name).toBe(200);
      expect(res.body).toContain('insp_queue_jobs{queue="employee-sync",state="waiting",service="worker"} 3');
    }
  });

  it("name only metrics the service registers", () => {
    const fakeDb = up.dbHandle as unknown as Parameters<typeof createServiceMetrics>[1]["dbHandle"];
    const names = new Set<string>();
    for (const service of ["api", "worker"] as const) {
      const registry = createServiceMetrics(service, { dbHandle: fakeDb, queues: [] });
      if (service === "api") httpDurationHistogram(registry);
      else jobMetrics(registry);
      for (const m of registry.getMetricsAsArray()) {
        names.add(m.name);
        if (String(m.type) === "histogram") for (const s of ["_bucket", "_sum", "_count"]) names.add(m.name + s);
      }
    }
    const files = [...filesUnder(join(repositoryRoot, "deploy/kubernetes")), DOC];
    let mentioned = 0;
    for (const f of files) {
      for (const [name] of readFileSync(f, "utf8").matchAll(/\binsp_[a-z0-9_]+/g)) {
        mentioned++;
        expect([...names], `${relative(repositoryRoot, f)} names ${name}`).toContain(name);
      }
    }
    expect(mentioned).toBeGreaterThan(0);
  });

  it("scale the workers on the sorted sets BullMQ keeps the waiting employee-sync and inspection-import jobs in, under the workers' QUEUE_PREFIX", async () => {
    const [scaled] = rendered.filter((m) => m.kind === "ScaledObject") as (Manifest & {
      spec: { scaleTargetRef: { name: string }; triggers: { type: string; metadata: Record<string, string> }[] };
    })[];
    expect(scaled!.spec.scaleTargetRef.name).toBe(worker.workload.metadata.name);
    // The queues a sync's employees and an inspection import are added to, by the code's own helpers.
    const queues = [
      ...new Set(
        [...(await jobsAddedBy((q) => enqueueSyncItems(q, ORG, ID, [{ id: ID, idx: 0 }]))), ...(await jobsAddedBy((q) => enqueueImport(q, ORG, ID)))].map(
          (a) => a.queue,
        ),
      ),
    ];
    expect(queues).toHaveLength(2);
    for (const q of queues) expect(JOB_NAMES).toContain(q);
    const keys = new QueueKeys(workerEnv.QUEUE_PREFIX);
    expect(scaled!.spec.triggers.map((t) => t.type)).toEqual(queues.map(() => "redis"));
    expect(scaled!.spec.triggers.map((t) => t.metadata.listName)).toEqual(queues.map((q) => keys.toKey(q, "prioritized")));
    const doc = readFileSync(DOC, "utf8");
    for (const t of scaled!.spec.triggers) {
      expect(t.metadata.listLength).toMatch(/^[1-9]\d*$/);
      // The page explains each threshold with the figure it comes from.
      expect(doc, `docs/kubernetes.md explains listLength ${t.metadata.listLength}`).toContain(`\`${t.metadata.listLength}\``);
      expect(doc).toContain(t.metadata.listName);
    }
  });

  it("add every job with a priority and without a delay, so a waiting job is in the sorted set KEDA counts", async () => {
    // Without a priority a job would wait in <prefix>:<queue>:wait, with a delay in :delayed:
    // neither is the set the trigger reads. (Webhook retries are delayed on purpose: enqueueRetry.)
    const added = [
      ...(await jobsAddedBy((q) => enqueueSyncItems(q, ORG, ID, [{ id: ID, idx: 0 }]))),
      ...(await jobsAddedBy((q) => enqueueImport(q, ORG, ID))),
      ...(await jobsAddedBy((q) => enqueueReport(q, ORG, ID))),
      ...(await jobsAddedBy((q) => enqueueExport(q, ORG, ID))),
      ...(await jobsAddedBy((q) => enqueueMails(q, ORG, [ID]))),
      ...(await jobsAddedBy((q) => enqueueDeliveries(q, [{ id: ID, organizationId: ORG }]))),
    ];
    expect(added.map((a) => a.queue).sort()).toEqual([...JOB_NAMES].sort());
    for (const a of added) {
      expect(a.opts.priority, a.queue).toBeGreaterThan(0);
      expect(a.opts, a.queue).not.toHaveProperty("delay");
    }
  });

  it("let each process drain within its pod's grace period", () => {
    expect(apiEnv.MIGRATE_ON_START).toBe(false);
    expect(workerEnv.MIGRATE_ON_START).toBe(false);
    expect(admin.container.command.slice(2)).toEqual(["migrate"]);
    // The API: the preStop sleep first (endpoints removed while it still accepts), then
    // SIGTERM and at most SHUTDOWN_TIMEOUT_SECONDS of draining, then the pools close.
    const preStop = api.container.lifecycle?.preStop?.exec?.command ?? [];
    expect(preStop[0]).toBe("sleep");
    const sleep = Number(preStop[1]);
    expect(sleep).toBeGreaterThanOrEqual(5);
    expect(api.workload.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(sleep + apiEnv.SHUTDOWN_TIMEOUT_SECONDS + 3);
    // A worker: no new jobs, active ones finish within SHUTDOWN_TIMEOUT_SECONDS, then it exits.
    expect(worker.workload.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(workerEnv.SHUTDOWN_TIMEOUT_SECONDS + 3);
  });

  it("mount a volume wherever a read-only container writes", () => {
    for (const [c, env] of [
      [api.container, apiEnv],
      [worker.container, workerEnv],
    ] as const) {
      const mounts = (c.volumeMounts ?? []).map((v) => v.mountPath);
      const under = (dir: string) => mounts.some((m) => dir === m || dir.startsWith(`${m}/`));
      // The folder store writes under MEDIA_DIR; the S3 store spools under MEDIA_SPOOL_DIR or the system's temporary folder.
      if (env.MEDIA_STORE === "fs") expect(under(env.MEDIA_DIR), `${c.name}: MEDIA_DIR`).toBe(true);
      else expect(under(env.MEDIA_SPOOL_DIR ?? "/tmp"), `${c.name}: media spool`).toBe(true);
    }
    // Without SMTP_URL a worker writes mails under MAIL_DIR; production requires SMTP_URL.
    expect(workerEnv.SMTP_URL).toBeDefined();
  });
});

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}
