/** A configuration value that stops the process: names the variable and says what is wrong. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`configuration error: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export class EnvReader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (bounds.min !== undefined && value < bounds.min) throw new ConfigError(name, `must be at least ${bounds.min}, got ${value}`);
    if (bounds.max !== undefined && value > bounds.max) throw new ConfigError(name, `must be at most ${bounds.max}, got ${value}`);
    return value;
  }

  port(name: string, fallback: number): number {
    return this.int(name, fallback, { min: 0, max: 65535 });
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new ConfigError(name, `must be true or false, got "${raw}"`);
  }

  url(name: string, fallback: string | undefined, protocols: string[]): string | undefined {
    const raw = this.optional(name) ?? fallback;
    if (raw === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(name, `must be a URL, got "${redactUrl(raw)}"`);
    }
    if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
    }
    return raw.replace(/\/+$/, '');
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
    return raw as T;
  }

  list(name: string, fallback: string[] = []): string[] {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    return raw.split(',').map((item) => item.trim()).filter(Boolean);
  }
}

/** Hides the password of a connection string before it is printed. */
export function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}
