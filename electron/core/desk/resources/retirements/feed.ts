// The retirements' part of the changes feed (resources/feed-part.ts): staged and swapped in once the
// feed's removals are applied, or loaded straight into an empty cache.
import type { KindFeed } from '@desk/resources/feed-part';
import type { RetirementsContext } from './sync';
import { loadRetirements } from './feed-load';

export const feed: KindFeed<RetirementsContext['cache'], ReturnType<typeof loadRetirements>> = {
  items: ['retirement'],
  resources: [{ resource: 'retirements' }],
  staging: ['retirements'],
  bulkIndexed: ['retirements'],
  analyzed: ['retirements'],
  remove: (write, removed) => write.removeRetirements(removed('retirement')),
  staged: ({ ctx, snapshot }, stage) => ({
    take(item) {
      if (item.type !== 'retirement') return false;
      stage('retirements', { id: item.id, hash: item.hash, json: item.json });
      return true;
    },
    afterRemovals: () => ({
      retirements: { status: 'ok', ...ctx.cache.write.commitRetirements({ full: snapshot, pageHashes: [], watermark: null, total: null }) },
    }),
  }),
  load: loadRetirements,
};
