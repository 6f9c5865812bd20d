/**
 * Leases: questions that read share a server; one that changes what the
 * server sees holds it alone; a waiting writer is not starved by a stream of
 * readers, and a reader already holding a lease elsewhere is never made to
 * wait for it (the deadlock the design rules out).
 */
import { describe, expect, test } from 'bun:test';
import { Leases, SessionLock } from '../../src/lsp/leases';

const server = () => ({ lock: new SessionLock() });
const wait = { timeoutMs: 1_000, what: 'fake' };
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('leases', () => {
  test('readers share; a writer waits for them, and readers that come later wait for the writer', async () => {
    const a = server();
    const [r1, r2, w, r3] = [new Leases(), new Leases(), new Leases(), new Leases()];
    await r1.share(a, wait);
    await r2.share(a, wait);
    const order: string[] = [];
    const writing = w.exclusive([a], wait).then(() => order.push('writer'));
    await tick();
    // A new reader queues behind the waiting writer.
    const reading = r3.share(a, wait).then(() => order.push('late reader'));
    await tick();
    expect(order).toEqual([]);
    r1.releaseAll();
    await tick();
    expect(order).toEqual([]);
    r2.releaseAll();
    await writing;
    await tick();
    expect(order).toEqual(['writer']);
    w.releaseAll();
    await reading;
    expect(order).toEqual(['writer', 'late reader']);
    r3.releaseAll();
    expect(a.lock.free).toBe(true);
  });

  test('a question that holds one server alone and asks for another alone keeps both (a chain, then its write)', async () => {
    const [a, b] = [server(), server()];
    const [q, other] = [new Leases(), new Leases()];
    await q.exclusive([a], wait);
    await q.exclusive([b], wait);
    expect([q.holds(a), q.holds(b), a.lock.writer, b.lock.writer]).toEqual([true, true, true, true]);
    // Neither is another question's meanwhile.
    let read = false;
    const reading = other.share(a, wait).then(() => {
      read = true;
    });
    await tick();
    expect(read).toBe(false);
    q.releaseAll();
    await reading;
    other.releaseAll();
    expect(a.lock.free && b.lock.free).toBe(true);
  });

  test('a reader holding another server goes ahead of a waiting writer (no deadlock)', async () => {
    const [a, b] = [server(), server()];
    const [reader, writer] = [new Leases(), new Leases()];
    await reader.share(a, wait);
    await reader.share(b, wait);
    const writing = writer.exclusive([a, b], wait);
    await tick();
    const c = server();
    await reader.share(c, wait); // holds leases: not held back
    reader.releaseAll();
    await writing;
    expect(a.lock.writer && b.lock.writer).toBe(true);
    writer.releaseAll();
    expect(a.lock.free && b.lock.free).toBe(true);
  });

  test('an exclusive lease gives up the question’s own shared leases first, and two woken waiters never both take it', async () => {
    const a = server();
    const [q1, q2] = [new Leases(), new Leases()];
    await q1.share(a, wait);
    await q2.share(a, wait);
    const both = Promise.all([q1.exclusive([a], wait), q2.exclusive([a], wait)]);
    // Each gave up its shared lease, so one of them gets it; the other waits for it.
    let holders = 0;
    const first = await Promise.race([both.then(() => 2), tick().then(() => 1)]);
    expect(first).toBe(1);
    expect(a.lock.writer).toBe(true);
    expect(a.lock.readers).toBe(0);
    for (const q of [q1, q2]) {
      if (q.holds(a)) {
        holders++;
        q.releaseAll();
      }
    }
    expect(holders).toBe(1);
    await both;
    expect(a.lock.writer).toBe(true);
    q1.releaseAll();
    q2.releaseAll();
    expect(a.lock.free).toBe(true);
  });

  test('a wait past the timeout is a one-line timeout error, and the writer it waited behind keeps its lease', async () => {
    const a = server();
    const writer = new Leases();
    await writer.exclusive([a], wait);
    const reader = new Leases();
    const err = await reader.share(a, { ...wait, timeoutMs: 20 }).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      'fake was busy with another question (diag --staged or an edit) past the --timeout; retry',
    );
    expect(a.lock.writer).toBe(true);
    expect(a.lock.readers).toBe(0);
    writer.releaseAll();
  });

  test('a writer that gives up waiting lets the readers it held back go', async () => {
    const a = server();
    const first = new Leases();
    await first.share(a, wait);
    const writer = new Leases();
    const gaveUp = writer.exclusive([a], { ...wait, timeoutMs: 30 }).catch(() => 'gave up');
    await tick();
    const late = new Leases();
    const reading = late.share(a, wait).then(() => 'read');
    expect(await gaveUp).toBe('gave up');
    expect(await reading).toBe('read');
    first.releaseAll();
    late.releaseAll();
    expect(a.lock.free).toBe(true);
  });
});
