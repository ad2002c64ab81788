/** A small HTTP client of the core's admin API (decisions.md section 6), for the CLI and the launcher. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`admin API answered ${status}: ${JSON.stringify(body)}`);
  }
}

export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly actor = 'cli',
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        'x-admin-actor': this.actor,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new AdminApiError(response.status, parsed);
    return parsed as T;
  }
}
