// The storm's attribution of local change events to ops (storm-events.ts), on cases the storms met.

import { describe, expect, it } from 'vitest';
import type { MemoryChange } from '../../src/core/change-events.js';
import type { LocalEvent, StormOp } from './storm-events.js';
import { attribute } from './storm-events.js';

const write = (path: string): MemoryChange[] => [{ type: 'write', path }];

function op(i: number, from: number, to: number, fields: Partial<StormOp>): StormOp {
  return { type: 'op', tab: 'A', i, kind: 'cmd', detail: `op${i}`, ok: true, ms: 1, from, to, t: 0, ...fields };
}

function event(n: number, changes: MemoryChange[]): LocalEvent {
  return { type: 'event', tab: 'A', source: 'local', changes, n, t: 0 };
}

const create = (i: number, from: number, to: number, path: string): StormOp => op(i, from, to, { command: 'create', paths: [path] });

describe('attribute', () => {
  it('gives an event to the op that should have published it, though another op in flight settled first', () => {
    // As in WebKit: a refused re-import, waiting its turn behind a create, settled in the step the create published.
    const reimport = op(36, 10, 12, { kind: 'reimport', ok: false, code: 'too_large' });
    const made = create(37, 10, 12, '/memories/a/c/z.md');
    const events = [event(10, write('/memories/x.md')), event(11, write('/memories/a/c/z.md'))];
    const result = attribute('A', [create(35, 9, 11, '/memories/x.md'), reimport, made], events, false);
    expect(result.problems).toEqual([]);
    expect(result.held.map((e) => e.n)).toEqual([10, 11]);
  });

  it('gives an undo the one event left in its window when a command in flight published the same changes', () => {
    const undo = op(103, 65, 71, { kind: 'undo-raw', command: 'undo' });
    const replace = op(107, 69, 72, { command: 'str_replace', paths: ['/memories/b/y.md'] });
    const events = [event(70, write('/memories/b/y.md')), event(71, write('/memories/b/y.md'))];
    expect(attribute('A', [undo, replace], events, false).problems).toEqual([]);
  });

  it('names an event that only a refused op or an op of other changes was in flight for', () => {
    const refused = op(4, 3, 5, { ok: false, code: 'not_found', command: 'str_replace', paths: ['/memories/a.md'] });
    const result = attribute('A', [refused, create(5, 3, 5, '/memories/b.md')], [event(3, write('/memories/a.md')), event(4, write('/memories/b.md'))], false);
    expect(result.problems).toEqual([
      'A: local event #3 [{"type":"write","path":"/memories/a.md"}] published by none of the ops in flight then (4 op4 not_found; 5 op5 ok)',
    ]);
    expect(result.held.map((e) => e.n)).toEqual([4]);
  });

  it('names an event published before an op started or after its lane saw it settle', () => {
    const problems = attribute('A', [create(1, 5, 6, '/memories/a.md')], [event(6, write('/memories/a.md'))], false).problems;
    expect(problems).toEqual([
      'A op 1 op1: published [], expected [{"type":"write","path":"/memories/a.md"}]',
      'A: local event #6 [{"type":"write","path":"/memories/a.md"}] published by none of the ops in flight then ()',
    ]);
  });

  it('names an ok command that published nothing, also in a closed tab; an undo may publish nothing', async () => {
    // An undo that found nothing left to change (e.g. by a tool that keeps no history) publishes no event.
    const ops = [create(1, 0, 1, '/memories/a.md'), op(2, 0, 1, { kind: 'undo-latest', command: 'undo' })];
    expect(attribute('A', ops, [], true).problems).toEqual([
      'A op 1 op1: published [], expected [{"type":"write","path":"/memories/a.md"}]',
    ]);
  });

  it('does not let an undo that published nothing take the event of a command in flight with it', async () => {
    // As in CI: the undo is matched first by its order, but the create must have its own event.
    const undo = op(186, 40, 44, { kind: 'undo-pick', command: 'undo' });
    const made = create(187, 41, 44, '/memories/y.md');
    expect(attribute('C', [undo, made], [event(42, write('/memories/y.md'))], false).problems).toEqual([]);
  });

  it('leaves the events of a closed tab that no answered op took unnamed: ops of unknown outcome may have published them', () => {
    const result = attribute('A', [create(1, 0, 1, '/memories/a.md')], [event(0, write('/memories/a.md')), event(1, write('/memories/b.md'))], true);
    expect(result).toEqual({ held: [event(0, write('/memories/a.md'))], problems: [] });
  });
});
