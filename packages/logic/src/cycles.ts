/** Cycle detection on the rule graph: strongly connected components and elementary cycles. */

type Successors = (node: string) => readonly string[];

/** Strongly connected components (iterative Tarjan), each a list of nodes. */
function stronglyConnected(nodes: readonly string[], next: Successors): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
  };
  for (const root of nodes) {
    if (index.has(root)) continue;
    visit(root);
    // Each frame keeps its successor list: `next` may filter, and a node may have thousands.
    const work: { v: string; i: number; succ: readonly string[] }[] = [{ v: root, i: 0, succ: next(root) }];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const succ = frame.succ;
      if (frame.i < succ.length) {
        const w = succ[frame.i++]!;
        if (!index.has(w)) {
          visit(w);
          work.push({ v: w, i: 0, succ: next(w) });
        } else if (onStack.has(w)) {
          low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!));
      if (low.get(frame.v) === index.get(frame.v)) {
        const component: string[] = [];
        let w: string | undefined;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.v);
        components.push(component);
      }
    }
  }
  return components;
}

/** Nodes that lie on a cycle: members of a component of two or more nodes, or with an edge to themselves. */
export function nodesOnCycles(nodes: readonly string[], next: Successors): Set<string> {
  const result = new Set<string>();
  for (const component of stronglyConnected(nodes, next)) {
    const only = component[0]!;
    if (component.length > 1 || next(only).includes(only)) for (const v of component) result.add(v);
  }
  return result;
}

export interface CycleList {
  /** Each cycle as a path that starts and ends on the same node, e.g. [a, b, a]. */
  cycles: string[][];
  /** True when more cycles exist than the limit allowed to list. */
  truncated: boolean;
}

/**
 * Elementary cycles of two or more nodes (Johnson's algorithm), self-loops excluded.
 * Each cycle starts at its earliest node in `nodes` order. At most `limit` cycles are listed.
 *
 * Only a node on a cycle of the graph left (nodes from the start on) can start a cycle. That set is
 * recomputed (linear) after each start that has a cycle, at most limit + 1 times, so an acyclic
 * template of thousands of questions costs one pass, not a component search per question.
 */
export function elementaryCycles(nodes: readonly string[], next: Successors, limit: number): CycleList {
  const order = new Map(nodes.map((n, i) => [n, i] as const));
  const cycles: string[][] = [];
  let truncated = false;
  const from =
    (s: number) =>
    (v: string): string[] =>
      next(v).filter((w) => w !== v && (order.get(w) ?? -1) >= s);
  let onCycle = nodesOnCycles(nodes, from(0));
  for (let s = 0; s < nodes.length && !truncated; s++) {
    const start = nodes[s]!;
    if (!onCycle.has(start)) continue;
    const sub = from(s);
    // Rooted at start, Tarjan reaches only what start reaches, which is all its component needs.
    const component = stronglyConnected([start], sub).find((c) => c.includes(start));
    onCycle = nodesOnCycles(nodes.slice(s + 1), from(s + 1));
    if (component === undefined || component.length < 2) continue;
    const members = new Set(component);
    const adj = new Map(component.map((v) => [v, sub(v).filter((w) => members.has(w))] as const));
    const blocked = new Set<string>();
    const blockers = new Map<string, Set<string>>();
    const path: string[] = [];
    const unblock = (u: string): void => {
      const todo = [u];
      while (todo.length > 0) {
        const x = todo.pop()!;
        blocked.delete(x);
        const waiting = blockers.get(x);
        blockers.delete(x);
        for (const w of waiting ?? []) if (blocked.has(w)) todo.push(w);
      }
    };
    const circuit = (v: string): boolean => {
      let found = false;
      path.push(v);
      blocked.add(v);
      for (const w of adj.get(v) ?? []) {
        if (truncated) break;
        if (w === start) {
          if (cycles.length >= limit) {
            truncated = true;
            break;
          }
          cycles.push([...path, start]);
          found = true;
        } else if (!blocked.has(w) && circuit(w)) {
          found = true;
        }
      }
      if (found) unblock(v);
      else
        for (const w of adj.get(v) ?? []) {
          const set = blockers.get(w) ?? new Set<string>();
          set.add(v);
          blockers.set(w, set);
        }
      path.pop();
      return found;
    };
    circuit(start);
  }
  return { cycles, truncated };
}
