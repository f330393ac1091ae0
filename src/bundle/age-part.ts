// The age code for an encrypted bundle: ./age-crypto.ts on the age-encryption package, loaded only then, by the
// loader ./age-loader.ts was handed.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { ageCrypto } from './age-crypto.js';
import type { AgeCrypto, AgeLibrary } from './age-crypto.js';
import { ageLoader } from './age-loader.js';

/** The age code, or `unavailable` saying why the package could not be loaded. */
export async function loadAgeCrypto(): Promise<AgeCrypto> {
  const load = ageLoader();
  if (!load) throw new MemoryToolError('unavailable', reply.unavailable('the age package was not handed to the bundle part'));
  // The loader hands over the age-encryption module itself (../tool/lazy-parts.ts, ../entries/worker.ts).
  return ageCrypto((await load()) as AgeLibrary);
}
