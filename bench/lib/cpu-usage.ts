import { readFileSync } from 'node:fs';

/**
 * How much CPU something else took while a measurement ran: the machine's busy time minus what
 * the benchmark's own processes used (services, database, load generator, harness). On a shared
 * machine that number says which figures were disturbed; the report shows it per measurement.
 */
export interface CpuSnapshot {
  at: number;
  /** Busy jiffies of all CPUs (user, nice, system, irq, softirq). */
  busy: number;
  steal: number;
  /** utime + stime of our processes plus their reaped children (the load generator, exited PostgreSQL backends). */
  ours: number;
}

export interface Interference {
  /** CPUs' worth of time used by other processes during the window (1 = one whole CPU). */
  otherCpu: number;
  /** CPUs' worth of time the hypervisor gave to other guests. */
  stealCpu: number;
}

const TICKS_PER_SECOND = 100;

export function snapshot(pids: number[]): CpuSnapshot {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  let ours = 0;
  for (const pid of new Set([process.pid, ...pids])) ours += processTicks(pid);
  return { at: Date.now(), busy: user + nice + system + irq + softirq, steal: steal ?? 0, ours };
}

export function interference(before: CpuSnapshot, after: CpuSnapshot): Interference {
  const seconds = Math.max(0.001, (after.at - before.at) / 1000);
  const other = after.busy - before.busy - (after.ours - before.ours);
  return {
    otherCpu: Math.max(0, other) / TICKS_PER_SECOND / seconds,
    stealCpu: Math.max(0, after.steal - before.steal) / TICKS_PER_SECOND / seconds,
  };
}

/** utime + stime (fields 14, 15) and those of waited-for children (16, 17); 0 once gone. */
export function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; fields after it start at field 3.
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const [utime, stime, cutime, cstime] = [fields[11], fields[12], fields[13], fields[14]];
    return utime + stime + cutime + cstime;
  } catch {
    return 0;
  }
}

/** CPU used per second of wall time, by named group of processes (1 = one whole CPU). */
export class CpuMeter {
  private readonly before: Map<string, number>;
  private readonly at = Date.now();

  constructor(private readonly groups: () => Record<string, number[]>) {
    this.before = this.read();
  }

  stop(): Record<string, number> {
    const seconds = Math.max(0.001, (Date.now() - this.at) / 1000);
    const after = this.read();
    return Object.fromEntries(
      [...after].map(([name, ticks]) => [
        name,
        Math.max(0, ticks - (this.before.get(name) ?? 0)) / TICKS_PER_SECOND / seconds,
      ]),
    );
  }

  private read(): Map<string, number> {
    return new Map(
      Object.entries(this.groups()).map(([name, pids]) => [
        name,
        pids.reduce((sum, pid) => sum + processTicks(pid), 0),
      ]),
    );
  }
}
