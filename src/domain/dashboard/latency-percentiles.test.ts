import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latencyBucketLabel, latencyQuantile } from './latency-percentiles.js';

describe('receipt latency percentiles', () => {
  it('puts a latency in the first bucket whose bound holds it', () => {
    assert.equal(latencyBucketLabel(50), '0.1');
    assert.equal(latencyBucketLabel(100), '0.1');
    assert.equal(latencyBucketLabel(101), '0.5');
    assert.equal(latencyBucketLabel(90_000_000), '+Inf');
  });

  it('interpolates within the bucket the rank falls in, as histogram_quantile does', () => {
    const buckets = new Map([
      ['1', 50],
      ['2', 50],
    ]);
    assert.equal(latencyQuantile(buckets, 0.5), 1);
    assert.equal(latencyQuantile(buckets, 0.75), 1.5);
    // The bucket '1' starts at the bound below it, 0.5.
    assert.equal(latencyQuantile(buckets, 0.25), 0.75);
  });

  it('answers the highest finite bound in +Inf and null with nothing counted', () => {
    assert.equal(latencyQuantile(new Map([['+Inf', 3]]), 0.5), 86400);
    assert.equal(latencyQuantile(new Map(), 0.5), null);
  });
});
