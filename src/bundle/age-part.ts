// The age code (./age-crypto.ts and the age-encryption package), loaded only when a bundle is encrypted or
// decrypted; the worker entry, which may not import(), hands it over here instead (as ../tool/lazy-parts.ts does).

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';

type AgeCrypto = typeof import('./age-crypto.js');

let provided: AgeCrypto | undefined;

/** Makes the age code come from `module` instead of a chunk loaded on first use. */
export function provideAgeCrypto(module: AgeCrypto): void {
  provided = module;
}

/** The age code, or `unavailable` saying why it could not be loaded. */
export async function loadAgeCrypto(): Promise<AgeCrypto> {
  if (provided) return provided;
  try {
    return await import('./age-crypto.js');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new MemoryToolError('unavailable', reply.unavailable(why), { cause: error });
  }
}
