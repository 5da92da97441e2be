// A desk that dies right after a first sync's load commits, before the indexes the load left to
// build after it are built: `node --import tsx test/support/load-then-die.ts <cache file> <n>`.
// It commits a load of n retirements, prints "committed" and blocks its thread (the build would
// come a turn later) until it is killed.
import { openDeskCache } from '@desk/cache';
import { loadRetirements } from './snapshot-retirements';

const [file, n] = process.argv.slice(2);
const cache = openDeskCache(file!);
void loadRetirements(cache, Number(n)).commit();
// (writes to a pipe are synchronous on Linux: the line is out before the block)
process.stdout.write('committed\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
