// Vitest's order of test files: the scale project's first. Vitest runs projects in name order (so
// `scale` came last), and within one the files that took longest on this machine before (a fresh
// clone, as in CI, has no such record: then in folder order). With two workers that left the
// scale-100 sync (about two minutes of one file) for the end, beside a worker with nothing left to
// do. Files longest first is what lets two workers end together, and the projects here go from the
// longest files (minutes, then tens of seconds) to the shortest, so the last files are short ones.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROJECT_ORDER = ['scale', 'integration', 'desk', 'registry', 'postgres', 'pgbouncer'];

const rank = (file: TestSpecification) => {
  const index = PROJECT_ORDER.indexOf(file.project.name);
  return index === -1 ? PROJECT_ORDER.length : index;
};

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array sort is stable: within a project, vitest's own order stands.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
