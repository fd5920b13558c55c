import type { Clock } from '../../src/domain/clock.js';

export class FakeClock implements Clock {
  constructor(private ms = Date.parse('2026-11-22T12:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
