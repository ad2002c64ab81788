import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { pin } from './placement';

/** A server process the harness started: a service under test or a baseline. */
export interface LaunchOptions {
  name: string;
  /** Compiled entry point. */
  entry: string;
  env: NodeJS.ProcessEnv;
  port: number;
  /** Path polled until it answers 200. */
  readyPath: string;
  /**
   * CPU list the process is pinned to once it answers (`taskset -a -p`); it boots unpinned, so a
   * fresh start per scenario costs half the wall time on two CPUs. Undefined: never pinned.
   */
  cpus?: string;
  /** stdout and stderr go here (the production logging path stays on, off the terminal). */
  logFile: string;
  /** Modules preloaded with `node -r` (the CPU-profile hook). */
  preload?: string[];
  /** Node and V8 flags (`--node-flags`), before everything else on the command line. */
  nodeFlags?: string[];
}

export class ServerProcess {
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private readonly exited: Promise<void>;

  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
  }

  static async start(options: LaunchOptions): Promise<ServerProcess> {
    const log = openSync(options.logFile, 'a');
    const nodeArgs = [
      ...(options.nodeFlags ?? []),
      ...(options.preload ?? []).flatMap((module) => ['-r', module]),
      options.entry,
    ];
    const child = spawn(process.execPath, nodeArgs, {
      env: options.env,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const server = new ServerProcess(
      options.name,
      `http://127.0.0.1:${options.port}`,
      child,
      options.logFile,
    );
    await server.waitReady(options.readyPath);
    if (options.cpus && !pin([server.pid], options.cpus)) {
      await server.stop();
      throw new Error(
        `${options.name}: taskset could not pin pid ${server.pid} to CPU ${options.cpus}`,
      );
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Why it is no longer running, for error messages. */
  describeExit(): string {
    return this.exit
      ? `exited (${this.exit.signal ?? `code ${this.exit.code}`}); last log lines:\n${this.logTail()}`
      : 'running';
  }

  /** Resident set size from /proc/<pid>/status (VmRSS), in MiB; NaN once the process is gone. */
  rssMb(): number {
    try {
      const match = readFileSync(`/proc/${this.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
      return match ? Number(match[1]) / 1024 : Number.NaN;
    } catch {
      return Number.NaN;
    }
  }

  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM (graceful, Nest's shutdown hooks), SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (!this.running) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    this.child.kill('SIGTERM');
    await this.exited;
    clearTimeout(timer);
  }

  logTail(lines = 15): string {
    if (!existsSync(this.logFile)) return '(no log)';
    return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }

  private async waitReady(path: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} ${this.describeExit()}`);
      try {
        const response = await fetch(`${this.url}${path}`);
        await response.arrayBuffer();
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    await this.stop();
    throw new Error(
      `${this.name} did not answer ${path} within 60 s; last log lines:\n${this.logTail()}`,
    );
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs a child to completion, pinned if asked; rejects with its stderr when it fails.
 * `onMeasuring` is called when the child prints the line `measuring` (its warm-up is over).
 */
export function runChild(
  entry: string,
  args: string[],
  cpus: string | undefined,
  onMeasuring?: () => void,
): Promise<void> {
  const [command, fullArgs] = cpus
    ? ['taskset', ['-c', cpus, process.execPath, entry, ...args]]
    : [process.execPath, [entry, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, fullArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (onMeasuring && chunk.split('\n').includes('measuring')) onMeasuring();
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${entry} failed (${signal ?? `code ${code}`}): ${stderr.trim().slice(-2000)}`,
            ),
          ),
    );
  });
}
