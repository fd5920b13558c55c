// A console session over real HTTP, as the page holds one: signed in as the bench owner
// (support/bench-owner.ts), each state-changing request with the session's cookie, its CSRF token
// and the console's Origin. Bodies are written in 64 KiB chunks, as a browser streams a file.
import http from 'node:http';
import { BENCH_OWNER } from './bench-owner.js';

export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly seconds: number;
  readonly setCookie: string[];
}

/** One request over a keep-alive agent; the body is written in 64 KiB chunks, as a browser streams a file. */
function call(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
          setCookie: response.headers['set-cookie'] ?? [],
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    if (body) {
      const CHUNK = 64 * 1024;
      let at = 0;
      const pump = () => {
        while (at < body.length) {
          const chunk = body.subarray(at, at + CHUNK);
          at += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      pump();
    } else request.end();
  });
}

/** A signed-in console session over real HTTP: its cookie and CSRF token. */
export class ConsoleClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private cookie = '';
  private csrf = '';

  constructor(private readonly baseUrl: string) {}

  async signIn(): Promise<void> {
    const probe = await call(this.agent, `${this.baseUrl}/console/api/session`, 'GET', {});
    this.keepCookie(probe);
    this.csrf = (JSON.parse(probe.body) as { csrfToken: string }).csrfToken;
    const body = Buffer.from(
      JSON.stringify({ email: BENCH_OWNER.email, password: BENCH_OWNER.password }),
    );
    const answer = await this.post('/console/api/session', body, 'application/json');
    if (answer.status !== 200) throw new Error(`sign-in → ${answer.status} ${answer.body}`);
    this.keepCookie(answer);
    this.csrf = (JSON.parse(answer.body) as { csrfToken: string }).csrfToken;
  }

  post(path: string, body: Buffer, type: string): Promise<Answer> {
    return call(
      this.agent,
      `${this.baseUrl}${path}`,
      'POST',
      {
        cookie: this.cookie,
        origin: this.baseUrl,
        'x-csrf-token': this.csrf,
        'content-type': type,
        'content-length': body.length,
      },
      body,
    );
  }

  get(path: string): Promise<Answer> {
    return call(this.agent, `${this.baseUrl}${path}`, 'GET', { cookie: this.cookie });
  }

  close(): void {
    this.agent.destroy();
  }

  private keepCookie(answer: Answer): void {
    const session = answer.setCookie
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('nok_session='));
    if (session) this.cookie = session;
  }
}
