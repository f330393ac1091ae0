// `vite preview` of a built demo folder, as `npx vite preview` serves `dist/demo/`, with the config's own plugins and
// headers; ANTHROPIC_API_KEY and ANTHROPIC_PROXY_TARGET from `env` while the config is read (as startDevServer does).

import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { preview } from 'vite';
import type { Served } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');

export async function startPreview(dir: string, env: Record<string, string | undefined> = {}): Promise<Served> {
  const names = ['ANTHROPIC_API_KEY', 'ANTHROPIC_PROXY_TARGET'] as const;
  const saved = names.map((name) => process.env[name]);
  names.forEach((name) => {
    const value = env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  });
  let server: Awaited<ReturnType<typeof preview>>;
  try {
    server = await preview({
      configFile: join(ROOT, 'vite.config.ts'),
      root: ROOT,
      logLevel: 'silent',
      build: { outDir: dir },
      preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    });
  } finally {
    names.forEach((name, i) => {
      const value = saved[i];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    });
  }
  const address = server.httpServer.address() as AddressInfo | null;
  if (!address) throw new Error('vite preview did not listen');
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}
