// The per-project answers' part of the changes feed (resources/feed-part.ts): an internal project's
// details come with its list row, a project's credits as their own item; staged and swapped in for
// the projects listed once the feed's removals are applied, or loaded straight into an empty cache.
import type { FeedOutcomes, KindFeed } from '@desk/resources/feed-part';
import type { AnswersContext } from './sync';
import { loadProjectAnswers } from './feed-load';

export const feed: KindFeed<AnswersContext['cache'], ReturnType<typeof loadProjectAnswers>> = {
  items: ['internalProject', 'projectCredits'],
  resources: [{ resource: 'projectDetails', examiner: true }, { resource: 'credits' }],
  staging: ['projectDetails', 'credits'],
  bulkIndexed: [],
  analyzed: [],
  remove: (write, removed) =>
    write.removeProjectAnswers('projectDetails', removed('internalProject')) +
    write.removeProjectAnswers('credits', removed('projectCredits')),
  staged: ({ ctx }, stage) => ({
    take(item) {
      if (item.type === 'internalProject') stage('projectDetails', { id: item.id, hash: item.hash, json: item.detailsJson });
      // Filed under the list row it came with (page-prep.ts), as the seed path does.
      else if (item.type === 'projectCredits') stage('credits', { id: item.id, hash: item.listHash, json: item.json });
      else return false;
      return true;
    },
    afterRemovals() {
      const { cache, examinerRead } = ctx;
      // Per-project answers are kept for the projects listed (as the seed path's commit does).
      const listed = (scope: 'public' | 'internal') => [...cache.projectHashes(scope).keys()];
      const outcomes: FeedOutcomes = {};
      if (examinerRead) outcomes.projectDetails = { status: 'ok', ...cache.write.commitPerProject('projectDetails', listed('internal')) };
      else cache.write.beginStaging('projectDetails');
      outcomes.credits = { status: 'ok', ...cache.write.commitPerProject('credits', listed(examinerRead ? 'internal' : 'public')) };
      return outcomes;
    },
  }),
  load: loadProjectAnswers,
};
