import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { helperThreadsFor } from '@desk/sync/worker/helper-threads';

const NONE = { replay: false, pageReader: false };
const REPLAY = { replay: true, pageReader: false };
const BOTH = { replay: true, pageReader: true };

describe("a first sync's helper threads", () => {
  it('gives the replay a thread from two cores, the page reader one with a core left beside a registry on this machine', () => {
    for (const url of ['http://127.0.0.1:4000', 'http://localhost:4000/registry', 'http://[::1]:8080', 'http://127.8.0.3']) {
      expect(helperThreadsFor(url, 1), url).toEqual(NONE);
      expect(helperThreadsFor(url, 2), url).toEqual(REPLAY);
      expect(helperThreadsFor(url, 3), url).toEqual(REPLAY);
      expect(helperThreadsFor(url, 4), url).toEqual(BOTH);
      expect(helperThreadsFor(url, 16), url).toEqual(BOTH);
    }
  });

  it('leaves the registry no core when it is on another machine', () => {
    for (const url of ['https://registry.example.org', 'https://10.0.0.5:8443', 'https://127.0.0.1.example.com']) {
      expect(helperThreadsFor(url, 1), url).toEqual(NONE);
      expect(helperThreadsFor(url, 2), url).toEqual(REPLAY);
      expect(helperThreadsFor(url, 3), url).toEqual(BOTH);
    }
  });

  it("counts this machine's cores when not told", () => {
    const url = 'http://127.0.0.1:4000';
    expect(helperThreadsFor(url)).toEqual(helperThreadsFor(url, availableParallelism()));
  });
});
