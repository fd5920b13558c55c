import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecipientPage } from '../../src/api/console/contract/messages.js';
import { withFreshFirstPage } from '../../web/src/features/messages/with-fresh-first-page.js';

function page(from: number, to: number, status: 'pending' | 'success', hasMore = true) {
  const data = [];
  for (let seq = from; seq <= to; seq++)
    data.push({ seq, msisdn: `668${String(seq).padStart(8, '0')}`, status, updatedAt: null });
  return { data, nextCursor: to, hasMore } satisfies RecipientPage;
}

describe('withFreshFirstPage', () => {
  it('puts the fresh first page before the later pages when they still follow from it', () => {
    const loaded = {
      pages: [page(1, 50, 'pending'), page(51, 100, 'pending'), page(101, 120, 'pending', false)],
      pageParams: [0, 50, 100],
    };
    const fresh = page(1, 50, 'success');
    const merged = withFreshFirstPage(loaded, fresh);
    assert.equal(merged.pages[0], fresh);
    assert.deepEqual(merged.pages.slice(1), loaded.pages.slice(1));
    assert.deepEqual(merged.pageParams, [0, 50, 100]);
  });

  it('keeps only the fresh first page when the later ones no longer follow from it', () => {
    // Filtered by a status: more recipients have it now, so the first page ends earlier.
    const loaded = {
      pages: [page(1, 80, 'success'), page(81, 130, 'success')],
      pageParams: [0, 80],
    };
    const fresh = page(1, 60, 'success');
    assert.deepEqual(withFreshFirstPage(loaded, fresh), { pages: [fresh], pageParams: [0] });
    const last = page(1, 20, 'success', false);
    assert.deepEqual(withFreshFirstPage(loaded, last), { pages: [last], pageParams: [0] });
  });
});
