// The fetch transport's timer ends with the answer, not after its whole timeout: a timer left armed
// holds the finished exchange, and outlives the connection (and the desk) that started it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchTransport, type FetchLike } from '@desk/client/http';

const request = { method: 'GET', headers: {}, body: undefined, timeoutMs: 120_000, where: 'GET /feed' };
const answering: FetchLike = async () => new Response('{"items":[]}', { status: 200 });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a fetch answer read piece by piece (a feed page)', () => {
  it('clears its timer when the stream ends', async () => {
    const answer = await fetchTransport(answering)('http://127.0.0.1:1/feed', request);
    expect(vi.getTimerCount()).toBe(1);
    const reader = answer.body!.getReader();
    let text = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += new TextDecoder().decode(read.value);
    expect(text).toBe('{"items":[]}');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer when the stream is cancelled', async () => {
    const answer = await fetchTransport(answering)('http://127.0.0.1:1/feed', request);
    await answer.body!.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer when read whole, as before', async () => {
    const answer = await fetchTransport(answering)('http://127.0.0.1:1/feed', request);
    expect(await answer.json()).toEqual({ items: [] });
    expect(vi.getTimerCount()).toBe(0);
  });
});
