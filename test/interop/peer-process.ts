// An SMPP peer we did not write, run as a child process: its stdout read as lines (the test waits
// for the line it needs, never for a time), its stderr kept for failure messages, and a stop that
// ends it by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

interface LineWaiter {
  readonly matches: (line: string) => boolean;
  readonly resolve: (line: string) => void;
  readonly reject: (error: Error) => void;
}

export class PeerProcess {
  /** Every stdout line so far, in order. */
  readonly lines: string[] = [];
  private stderrText = '';
  private exitText: string | null = null;
  private readonly waiters = new Set<LineWaiter>();
  private readonly exited: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
        this.exitText = signal === null ? `exit code ${code}` : `signal ${signal}`;
        for (const waiter of this.waiters)
          waiter.reject(new Error(`${name} ended (${this.exitText}) first:\n${this.output()}`));
        this.waiters.clear();
        resolve();
      }),
    );
    child.on('error', (error) => (this.stderrText += `\n[${name}: ${error.message}]`));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      for (const waiter of this.waiters) {
        if (!waiter.matches(line)) continue;
        this.waiters.delete(waiter);
        waiter.resolve(line);
      }
    });
  }

  /** Starts `command`; rejects if it cannot be run at all (not installed, not executable). */
  static async start(
    name: string,
    command: string,
    args: readonly string[],
    cwd?: string,
  ): Promise<PeerProcess> {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
    } catch (error) {
      throw new Error(`${name} (${command}) could not be started`, { cause: error });
    }
    return new PeerProcess(name, child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exitText === null;
  }

  /** The first stdout line so far or to come that `matches`; rejects on timeout or exit. */
  waitForLine(
    matches: (line: string) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<string> {
    const seen = this.lines.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    if (!this.running)
      return Promise.reject(new Error(`${this.name} ended before ${what}:\n${this.output()}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${this.name}: no ${what} within ${timeoutMs} ms:\n${this.output()}`));
      }, timeoutMs);
      const waiter: LineWaiter = {
        matches,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** The last stdout lines and stderr, for a failure message. */
  output(): string {
    return `stdout (last 20 lines):\n${this.lines.slice(-20).join('\n')}\nstderr:\n${this.stderrText.slice(-4000)}`;
  }

  /**
   * SIGTERM by pid and waits for the exit; SIGKILL if it has not gone after `graceMs`. Returns
   * how it ended, e.g. `signal SIGTERM`.
   */
  async stop(graceMs = 5_000): Promise<string> {
    if (this.running) {
      process.kill(this.pid, 'SIGTERM');
      const timer = setTimeout(() => {
        if (this.running) process.kill(this.pid, 'SIGKILL');
      }, graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exitText!;
  }
}

/** `key=value` fields of a tab-separated report line after its event name. */
export function fieldsOf(line: string): Record<string, string> {
  const [, ...pairs] = line.split('\t');
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}
