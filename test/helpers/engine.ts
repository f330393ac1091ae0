// Which engine a test runs in, from its project's `provide` (vite.config.ts). A test that cannot run in an engine
// is skipped with the reason in its name: `it.skipIf(engine === 'webkit')('… (skipped in WebKit: why)', …)`.

import { inject } from 'vitest';

export type Engine = 'node' | 'chromium' | 'firefox' | 'webkit';

declare module 'vitest' {
  export interface ProvidedContext {
    engine: Engine;
  }
}

export const engine: Engine = inject('engine');
