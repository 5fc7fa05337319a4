import { describe, expect, it } from 'vitest';
import { noWorkerNotice, workersLine } from './workers';

describe('who works on a suite', () => {
  it('warns only while a suite waits on PostgreSQL with no live worker', () => {
    const none = { backend: 'workers', online: 0, slots: 0 } as const;
    expect(noWorkerNotice('queued', none)).toMatch(/No worker is running.*npm run worker/);
    expect(noWorkerNotice('running', none)).not.toBeNull();
    expect(noWorkerNotice('done', none)).toBeNull();
    expect(noWorkerNotice('cancelled', none)).toBeNull();
    expect(noWorkerNotice('queued', { backend: 'workers', online: 1, slots: 4 })).toBeNull();
    expect(noWorkerNotice('queued', { backend: 'in-process' })).toBeNull();
  });

  it('names the workers and their slots, in the singular where it is one', () => {
    expect(workersLine('queued', { backend: 'workers', online: 1, slots: 1 })).toBe('on 1 worker, 1 run at a time');
    expect(workersLine('running', { backend: 'workers', online: 2, slots: 32 })).toBe('on 2 workers, 32 runs at a time');
    expect(workersLine('done', { backend: 'workers', online: 2, slots: 32 })).toBeNull();
    expect(workersLine('running', { backend: 'workers', online: 0, slots: 0 })).toBeNull();
    expect(workersLine('running', { backend: 'in-process' })).toBeNull();
  });
});
