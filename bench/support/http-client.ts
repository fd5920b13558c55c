// A minimal HTTP/1.1 client over node:http with one keep-alive connection, so a latency sample is
// the server's answer time plus loopback, not connection setup.
import http from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly body: Buffer;
  /** Request start (before the first byte is written) to the last byte of the answer. */
  readonly seconds: number;
}

export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  get(path: string): Promise<HttpAnswer> {
    return this.request('GET', path);
  }

  post(path: string, body: Buffer): Promise<HttpAnswer> {
    return this.request('POST', path, body);
  }

  async getJson<T>(path: string): Promise<T> {
    const answer = await this.get(path);
    if (answer.status !== 200)
      throw new Error(`GET ${path} → ${answer.status} ${answer.body.toString()}`);
    return JSON.parse(answer.body.toString()) as T;
  }

  close(): void {
    this.agent.destroy();
  }

  private request(method: string, path: string, body?: Buffer): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const request = http.request(
        new URL(path, this.baseUrl),
        {
          method,
          agent: this.agent,
          headers: {
            'x-api-key': this.apiKey,
            ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks),
              seconds: Number(process.hrtime.bigint() - started) / 1e9,
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** The value at quantile `q` (nearest rank) of unsorted samples. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
