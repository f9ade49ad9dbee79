/** Reading what /metrics serves (Prometheus text format 0.0.4), and the metric names a Grafana dashboard uses. */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescape = (v: string) => v.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));

/** Families by name; a histogram's _bucket, _sum and _count samples belong to its family. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: "untyped", help: "", samples: [] }));
    return f;
  };
  let current: Family | null = null;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      current = family(meta[2]!);
      if (meta[1] === "TYPE") current.type = meta[3]!;
      else current.help = meta[3]!;
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? "").matchAll(LABEL)) labels[k!] = unescape(v!);
    const sample = { name: m[1]!, labels, value: Number(m[3]) };
    const owner = current && sample.name.startsWith(current.name) ? current : family(sample.name);
    owner.samples.push(sample);
  }
  return families;
}

/** Every sample name a scrape holds (histograms as name_bucket, name_sum, name_count). */
export const sampleNames = (families: Map<string, Family>) => new Set([...families.values()].flatMap((f) => f.samples.map((s) => s.name)));

const NOT_METRICS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan"]);

/** The metric names one PromQL expression reads (functions, labels, keywords, strings and Grafana variables left out). */
export function promqlMetricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\$\{[^}]*\}|\$[a-zA-Z_][a-zA-Z0-9_]*/g, " ")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names = new Set<string>();
  for (const m of stripped.matchAll(/(?<![a-zA-Z0-9_:.])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![a-zA-Z0-9_:])(\s*\()?/g)) {
    if (m[2] || NOT_METRICS.has(m[1]!.toLowerCase())) continue;
    names.add(m[1]!);
  }
  return [...names];
}

interface PanelLike {
  targets?: { expr?: string }[];
  panels?: PanelLike[];
}

/** Every PromQL expression of a Grafana dashboard: panel targets (rows' panels included) and query variables. */
export function dashboardExpressions(dashboard: { panels?: PanelLike[]; templating?: { list?: { type?: string; query?: unknown }[] } }): string[] {
  const exprs: string[] = [];
  const walk = (panels: PanelLike[] = []) => {
    for (const p of panels) {
      for (const t of p.targets ?? []) if (t.expr) exprs.push(t.expr);
      walk(p.panels);
    }
  };
  walk(dashboard.panels);
  for (const v of dashboard.templating?.list ?? []) {
    if (v.type !== "query") continue;
    const q = typeof v.query === "string" ? v.query : (v.query as { query?: string } | undefined)?.query;
    const lv = q && /^label_values\(\s*([^,)]+)/.exec(q);
    if (lv) exprs.push(lv[1]!);
  }
  return exprs;
}
