import { execFileSync } from 'node:child_process';

/**
 * Where processes run. With `taskset` and at least two CPUs allowed, the services under test
 * (and the embedded PostgreSQL) share the first CPU and the load generator (and the harness
 * itself) get the second, so the load never steals cycles from what it measures. Otherwise
 * everything runs unpinned and the report says so.
 */
export interface Placement {
  pinned: boolean;
  /** `taskset -c` lists; undefined when unpinned. */
  serviceCpus?: string;
  loadCpus?: string;
  dbCpus?: string;
  /** One line for the report. */
  description: string;
}

export function detectPlacement(options: { pin: boolean; pinDatabase: boolean }): Placement {
  const allowed = options.pin ? allowedCpus() : [];
  if (allowed.length < 2) {
    const why = !options.pin
      ? 'pinning turned off (--no-pin)'
      : allowed.length === 0
        ? 'taskset not available'
        : 'only one CPU available';
    return { pinned: false, description: `unpinned: ${why}` };
  }
  const service = String(allowed[0]);
  const load = String(allowed[1]);
  const dbCpus = options.pinDatabase ? service : undefined;
  return {
    pinned: true,
    serviceCpus: service,
    loadCpus: load,
    dbCpus,
    description: `services on CPU ${service}${dbCpus ? ', embedded PostgreSQL on the same CPU' : ', PostgreSQL unpinned'}; load generator and harness on CPU ${load}`,
  };
}

/** CPUs this process may run on, from `taskset -c -p` ("pid 1's current affinity list: 0,1,4-5"). */
export function allowedCpus(): number[] {
  try {
    const output = execFileSync('taskset', ['-c', '-p', String(process.pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return parseCpuList(output.split(':').pop()!.trim());
  } catch {
    return [];
  }
}

export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [from, to] = part.split('-').map(Number);
    for (let cpu = from; cpu <= (to ?? from); cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Pins running processes (every thread of each) to a CPU list; returns false if taskset refused. */
export function pin(pids: number[], cpus: string): boolean {
  let ok = true;
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
    } catch {
      ok = false;
    }
  }
  return ok;
}
