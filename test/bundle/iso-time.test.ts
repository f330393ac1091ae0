// A bundle's times accept and write only what round-trips: ISO 8601 with a zone, a real calendar date, a year from 1
// to 9999 once in UTC. Refusals name the field and change nothing; an export always imports, even of a time stored
// out of range; and a seeded property over edge dates: import accepts exactly the real instants in range, and what
// it accepted is exported as a bundle that imports to the same bytes.

import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/storage/store.js';
import { TIME, bundleText, file } from '../helpers/bundles.js';
import { EXPORTED_AT, bundleTools, refusal, snapshot, write } from './tools.js';
import { seededRandom } from '../helpers/seeded-random.js';

const { freshTool, usageOf } = bundleTools();

/** `[time as written, the instant it names]`: each accepted, as createdAt and updatedAt. */
const ACCEPTED: [string, string][] = [
  ['2026-02-28T23:59:59.999Z', '2026-02-28T23:59:59.999Z'],
  ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
  ['2000-02-29T00:00:00+00:00', '2000-02-29T00:00:00.000Z'],
  ['2026-12-02T10:00Z', '2026-12-02T10:00:00.000Z'],
  ['2026-06-15T12:00:00-00:00', '2026-06-15T12:00:00.000Z'],
  ['2026-06-15T12:00:00.123456789+05:30', '2026-06-15T06:30:00.123Z'],
  ['1969-12-31T23:59:59.999Z', '1969-12-31T23:59:59.999Z'],
  ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z'],
  ['0001-01-01T00:00:00-01:00', '0001-01-01T01:00:00.000Z'],
  // Year 0 where it was written, year 1 in UTC: four digits either way, so it round-trips.
  ['0000-12-31T23:00:00-01:00', '0001-01-01T00:00:00.000Z'],
  ['0099-03-01T00:00:00Z', '0099-03-01T00:00:00.000Z'],
  ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ['9999-12-31T23:59:59.999+14:00', '9999-12-31T09:59:59.999Z'],
  ['9999-12-31T12:00:00-11:59', '9999-12-31T23:59:00.000Z'],
];

/** Times that do not name one instant a bundle can write back, each with why. */
const REFUSED: [string, unknown][] = [
  ['year 10000 in UTC', '9999-12-31T23:59:59.999-12:00'],
  ['year 0 in UTC', '0000-01-01T00:00:00+01:00'],
  ['year 0', '0000-06-01T00:00:00Z'],
  ['the six-digit year toISOString writes past 9999', '+010000-01-01T11:59:59.999Z'],
  ['a negative year', '-000001-01-01T00:00:00Z'],
  ['30 February', '2026-02-30T00:00:00Z'],
  ['29 February of a common year', '2026-02-29T00:00:00Z'],
  ['29 February of 1900', '1900-02-29T00:00:00Z'],
  ['31 April', '2026-04-31T00:00:00Z'],
  ['month 13', '2026-13-01T00:00:00Z'],
  ['month 0', '2026-00-10T00:00:00Z'],
  ['day 0', '2026-01-00T00:00:00Z'],
  ['hour 24', '2026-01-01T24:00:00Z'],
  ['minute 60', '2026-01-01T23:60:00Z'],
  ['a leap second', '2016-12-31T23:59:60Z'],
  ['an offset of 24 hours', '2026-01-01T00:00:00+24:00'],
  ['an offset of 60 minutes', '2026-01-01T00:00:00+01:60'],
  ['an offset without a colon', '2026-01-01T00:00:00+0100'],
  ['no zone', '2026-01-01T00:00:00'],
  ['a date alone', '2026-01-01'],
  ['a space for T', '2026-01-01 00:00:00Z'],
  ['lower-case t and z', '2026-01-01t00:00:00z'],
  ['a leading space', ' 2026-01-01T00:00:00Z'],
  ['prose', 'yesterday'],
  ['an empty string', ''],
  ['milliseconds as a number', 1_700_000_000_000],
  ['an object', {}],
];

describe('a bundle time', () => {
  it('is accepted as the instant it names when it round-trips, in createdAt, updatedAt and exportedAt', async () => {
    const tool = await freshTool();
    const files = await Promise.all(
      ACCEPTED.map(async ([time], i) => ({ ...(await file(`/memories/t${i}.md`, `${i}`)), createdAt: time, updatedAt: time })),
    );
    await tool.importBundle(JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: ACCEPTED[5]?.[0], files }));
    const times = new Map((await tool.list()).map((entry) => [entry.path, [entry.createdAt, entry.updatedAt]]));
    ACCEPTED.forEach(([written, instant], i) => {
      expect(times.get(`/memories/t${i}.md`)?.map((date) => date.toISOString()), written).toEqual([instant, instant]);
    });
  });

  it.each(REFUSED)('is refused when it is %s, naming the field, and nothing changes', async (_, time) => {
    const tool = await freshTool();
    await write(tool, '/memories/kept.md', 'kept\n');
    const before = await snapshot(tool);
    const usage = await usageOf(tool);
    const good = await file('/memories/new.md', 'new');
    const bundles: [string, string][] = [
      ['createdAt', bundleText([good, { ...good, path: '/memories/bad.md', createdAt: time }])],
      ['updatedAt', bundleText([good, { ...good, path: '/memories/bad.md', updatedAt: time }])],
      ['exportedAt', JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: time, files: [good] })],
    ];
    for (const [field, bundle] of bundles) {
      const error = await refusal(tool.importBundle(bundle));
      expect(error.code).toBe('invalid_bundle');
      expect(error.message).toContain(`"${field}" must be an ISO 8601 date-time string with its zone, a real date`);
      if (field !== 'exportedAt') expect(error.message).toContain('files[1] "/memories/bad.md"');
    }
    expect(await snapshot(tool)).toBe(before);
    expect(await usageOf(tool)).toEqual(usage);
  });
});

describe('an export always imports', () => {
  it('writes a stored time past 9999 or before year 1 at the nearer end, and one that is no number as the export time', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/late.md', 'late');
    await write(tool, '/memories/early.md', 'early');
    const store = await MemoryStore.open(tool.dbName);
    try {
      // As an older version could have stored them: imported from `+010000-…`, or a clock gone wrong.
      await store.run('readwrite', async (tx) => {
        const entries = tx.objectStore('entries');
        const late = await entries.get('/memories/late.md');
        const early = await entries.get('/memories/early.md');
        if (!late || !early) throw new Error('missing');
        await entries.put({ ...late, createdAt: Date.parse('+010000-01-01T11:59:59.999Z'), updatedAt: 8.64e15 });
        await entries.put({ ...early, createdAt: -8.64e15, updatedAt: Number.NaN });
      });
    } finally {
      store.close();
    }
    const exported = await tool.exportBundle({ exportedAt: EXPORTED_AT });
    const copy = await freshTool();
    await copy.importBundle(exported);
    const times = Object.fromEntries((await copy.list()).map((e) => [e.name, [e.createdAt.toISOString(), e.updatedAt.toISOString()]]));
    expect(times).toEqual({
      'late.md': ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
      'early.md': ['0001-01-01T00:00:00.000Z', EXPORTED_AT.toISOString()],
    });
  });

  it('refuses an exportedAt Date it could not write back as a four-digit year', async () => {
    const tool = await freshTool();
    for (const date of [new Date(Date.UTC(10000, 0, 1)), new Date(-62_135_596_800_001), new Date(Number.NaN)]) {
      await expect(tool.exportBundle({ exportedAt: date })).rejects.toThrow(TypeError);
    }
    await expect(tool.exportBundle({ exportedAt: new Date('9999-12-31T23:59:59.999Z') })).resolves.toBeInstanceOf(Blob);
  });

  it('accepts exactly the real instants of years 1 to 9999 in UTC over 400 seeded edge dates, and exports them so they import to the same bytes', async () => {
    const random = seededRandom(24);
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const pad = (n: number, width: number): string => String(n).padStart(width, '0');
    const candidates = Array.from({ length: 400 }, () => {
      const year = pick([0, 1, 2, 99, 100, 1582, 1899, 1900, 1969, 1970, 2000, 2024, 2038, 2100, 2400, 9998, 9999, Math.floor(random() * 10000)]);
      const month = pick([0, 1, 2, 2, 4, 6, 9, 11, 12, 12, 13]);
      const day = pick([0, 1, 28, 29, 29, 30, 31, 31, 32]);
      const [hour, minute, second] = [pick([0, 12, 23, 23, 24]), pick([0, 30, 59, 60]), pick([0, 59, 59, 60])];
      const offset = pick([0, 0, 60, 330, 719, 720, 840, 1439, 1440]) * pick([1, -1]);
      const fraction = pick(['', '.0', '.999', '.123456789']);
      const zone = offset === 0 ? pick(['Z', '+00:00']) : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60), 2)}:${pad(Math.abs(offset) % 60, 2)}`;
      const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}${zone}`;
      // The oracle, apart from the library's code: the fields must come back out of a Date unchanged.
      const date = new Date(0);
      date.setUTCFullYear(year, month - 1, day);
      date.setUTCHours(hour, minute, second, Number(fraction.slice(1, 4).padEnd(3, '0')));
      const real =
        date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
        date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second &&
        Math.abs(offset) < 1440;
      const instant = new Date(date.getTime() - offset * 60_000);
      const year4 = instant.getUTCFullYear() >= 1 && instant.getUTCFullYear() <= 9999;
      return { text, accepted: real && year4, instant };
    });
    expect(candidates.filter((c) => c.accepted).length).toBeGreaterThan(60);
    expect(candidates.filter((c) => !c.accepted).length).toBeGreaterThan(60);

    const tool = await freshTool();
    const good = await file('/memories/x.md', 'x');
    for (const candidate of candidates) {
      const attempt = tool.importBundle(bundleText([{ ...good, updatedAt: candidate.text }]), { dryRun: true });
      if (candidate.accepted) await expect(attempt, candidate.text).resolves.toMatchObject({ added: 1 });
      else expect((await refusal(attempt)).code, candidate.text).toBe('invalid_bundle');
    }
    // Every accepted time, stored and exported: the export imports, and exports again to the same bytes.
    const accepted = candidates.filter((c) => c.accepted);
    const files = await Promise.all(
      accepted.map(async (c, i) => ({ ...(await file(`/memories/d${pad(i, 3)}.md`, c.text)), createdAt: TIME, updatedAt: c.text })),
    );
    await tool.importBundle(bundleText(files));
    for (const entry of await tool.list()) {
      const candidate = accepted[Number(entry.name.slice(1, 4))];
      expect(entry.updatedAt.toISOString(), candidate?.text).toBe(candidate?.instant.toISOString());
    }
    const exported = await snapshot(tool);
    const copy = await freshTool();
    await copy.importBundle(exported);
    expect(await snapshot(copy)).toBe(exported);
  }, 120_000);
});

