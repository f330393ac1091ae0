// The refusals a well-formed random command may meet on a memory where commands collide, shared by the random
// tests (invariants.test.ts, e2e/storm.test.ts): any other failure (a storage error, a thrown TypeError, a hang)
// is a finding. Pure, for Node and the browser.

import type { MemoryToolErrorCode } from '../../src/index.js';

export const RANDOM_REFUSALS: ReadonlySet<MemoryToolErrorCode> = new Set<MemoryToolErrorCode>([
  'not_found',
  'no_match',
  'multiple_matches',
  'already_exists',
  'not_a_file',
  'is_a_directory',
  'invalid_input',
  'too_large',
  'conflict',
  'invalid_bundle',
]);
