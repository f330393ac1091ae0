// A bundle's names pass the secret check a created path passes (src/guards/path-secrets.ts): a JSON bundle or a zip
// with a key as a file or folder name is refused whole, unless the tool was opened with blockSecrets: false.

import { describe, expect, it } from 'vitest';
import { bundleText } from '../helpers/bundles.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { body, fake } from '../guards/fake-secrets.js';
import { zipBlob } from './zip-builder.js';
import { refusal, snapshot, write } from './tools.js';

const open = toolsClosedAfterEach('bundle-secret');
const key = fake('ghp_', body(36));

const bundles: Record<string, () => string | Blob> = {
  'a JSON file': () => bundleText([{ path: `/memories/${key}.md`, content: 'x' }]),
  'a JSON folder': () => JSON.stringify({ format: 'claude-memory-bundle', version: 1, files: [], folders: [`/memories/${key}`] }),
  'a zip file': () => zipBlob([{ name: 'memories/' }, { name: `memories/${key}.md`, content: 'x' }]),
  'a zip folder': () => zipBlob([{ name: 'memories/' }, { name: `memories/${key}/` }]),
};

describe('a bundle whose names hold a key', () => {
  for (const [kind, make] of Object.entries(bundles)) {
    it(`is refused whole, nothing changed: ${kind}`, async () => {
      const tool = await open();
      await write(tool, '/memories/kept.md', 'kept\n');
      const before = await snapshot(tool);
      const error = await refusal(tool.importBundle(make()));
      expect(error.code).toBe('invalid_bundle');
      expect(error.message).toMatch(/its path looks like it holds .+; rename it, or import into a tool opened with blockSecrets: false/u);
      expect(await snapshot(tool)).toBe(before);
    });

    it(`imports with blockSecrets: false: ${kind}`, async () => {
      const tool = await open({ blockSecrets: false });
      const report = await tool.importBundle(make());
      expect(report.added + report.folders).toBeGreaterThan(0);
    });
  }
});
