/**
 * Reads V8 profiles (the `.cpuprofile` JSON `--cpu-prof` and the inspector write, and the
 * sampling heap profile) and names where the time or the memory went: the top functions by
 * self weight, the share of each package, and the functions of our own code by inclusive
 * weight (what a fix would target).
 */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame; hitCount?: number; children?: number[] }>;
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** `HeapProfiler.stopSampling`'s profile: a tree of allocation sites with the bytes still alive. */
export interface HeapProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  id: number;
  children: HeapProfileNode[];
}

export interface HeapProfile {
  head: HeapProfileNode;
}

export interface ProfileEntry {
  name: string;
  /** Share of the total weight (busy time, or live bytes), 0..1. */
  share: number;
  /** Milliseconds for a CPU profile, bytes for a heap profile. */
  amount: number;
}

export interface ProfileSummary {
  /** Busy milliseconds (CPU) or live bytes sampled (heap). */
  total: number;
  /** CPU only: share of the window the process was idle. */
  idleShare: number;
  topSelf: ProfileEntry[];
  byPackage: ProfileEntry[];
  /** Our code (apps/, libs/) by inclusive weight: the function and everything it called. */
  topOwnInclusive: ProfileEntry[];
}

const OWN_CODE = /\/(apps|libs)\/[^/]+\/src\//;

interface FlatNode {
  frame: CallFrame;
  parent?: number;
  weight: number;
}

export function summariseProfile(profile: CpuProfile, top = 12): ProfileSummary {
  const totalHits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const msPerHit = totalHits ? (profile.endTime - profile.startTime) / 1000 / totalHits : 0;
  const parents = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);
  let idleHits = 0;
  const nodes = new Map<number, FlatNode>();
  for (const node of profile.nodes) {
    const idle = node.callFrame.functionName === '(idle)';
    if (idle) idleHits += node.hitCount ?? 0;
    nodes.set(node.id, {
      frame: node.callFrame,
      parent: parents.get(node.id),
      weight: idle ? 0 : (node.hitCount ?? 0) * msPerHit,
    });
  }
  return { ...aggregate(nodes, top), idleShare: totalHits ? idleHits / totalHits : 0 };
}

export function summariseHeapProfile(profile: HeapProfile, top = 12): ProfileSummary {
  const nodes = new Map<number, FlatNode>();
  const visit = (node: HeapProfileNode, parent?: number): void => {
    nodes.set(node.id, { frame: node.callFrame, parent, weight: node.selfSize });
    for (const child of node.children) visit(child, node.id);
  };
  visit(profile.head);
  return { ...aggregate(nodes, top), idleShare: 0 };
}

function aggregate(nodes: Map<number, FlatNode>, top: number): Omit<ProfileSummary, 'idleShare'> {
  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const node of nodes.values()) {
    if (node.weight === 0) continue;
    total += node.weight;
    add(self, functionKey(node.frame), node.weight);
    add(packages, packageOf(node.frame), node.weight);
    // Each of our functions on this stack gets the weight once, however often it recurs.
    const seen = new Set<string>();
    for (
      let current: FlatNode | undefined = node;
      current;
      current = current.parent === undefined ? undefined : nodes.get(current.parent)
    ) {
      if (!OWN_CODE.test(current.frame.url)) continue;
      const key = functionKey(current.frame);
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, node.weight);
      }
    }
  }
  const entries = (map: Map<string, number>, count: number): ProfileEntry[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, amount]) => ({ name, share: total ? amount / total : 0, amount }));
  return {
    total,
    topSelf: entries(self, top),
    byPackage: entries(packages, 10),
    topOwnInclusive: entries(inclusive, 8),
  };
}

function add(map: Map<string, number>, key: string, hits: number): void {
  map.set(key, (map.get(key) ?? 0) + hits);
}

export function functionKey(frame: {
  functionName: string;
  url: string;
  lineNumber: number;
}): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  return `${name} (${shortUrl(frame.url)}:${frame.lineNumber + 1})`;
}

/** `node_modules/typeorm/...` → `typeorm/...`; our compiled files → their path in the repository. */
export function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0 && !path.includes('/payment-gateway-bench/'))
    return path.slice(modules + '/node_modules/'.length);
  const own = path.match(/\/((?:apps|libs|bench)\/.*)$/);
  return own ? own[1] : path;
}

/** Which package a frame belongs to: an npm package, our code, Node's internals, or V8 itself. */
export function packageOf(frame: { functionName: string; url: string }): string {
  const url = frame.url;
  if (!url)
    return frame.functionName.startsWith('(') ? frame.functionName : 'native (V8 builtins, C++)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  if (
    OWN_CODE.test(path) &&
    (path.includes('/payment-gateway-bench/') || !path.includes('/node_modules/'))
  )
    return 'our code (apps/, libs/)';
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = path.slice(modules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  return 'other';
}
