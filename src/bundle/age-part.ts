// The age code for an encrypted bundle: ./age-crypto.ts on the age-encryption package, which is loaded only then, as
// a part of the tool (../tool/lazy-parts.ts: `unavailable` if it cannot be, handed over by the worker entry).

import { parts } from '../tool/lazy-parts.js';
import { ageCrypto } from './age-crypto.js';
import type { AgeCrypto } from './age-crypto.js';

/** The age code, or `unavailable` saying why the package could not be loaded. */
export async function loadAgeCrypto(): Promise<AgeCrypto> {
  return ageCrypto(await parts.age());
}
