// `idb-memory-tool/worker`: the main entry with every part of the tool loaded with it, for contexts that may not
// `import()` (service workers, MV3 extension background workers). Importing it has that one effect, which
// package.json's `sideEffects` names so that bundlers keep it.
/** @module idb-memory-tool/worker */

import * as ageLibrary from 'age-encryption';
import * as bundle from '../bundle/bundle.js';
import * as history from '../history/read-history.js';
import * as compact from '../tool/compact-action.js';
import * as treeReads from '../storage/tree-reads.js';
import * as expire from '../tool/expire-action.js';
import * as forget from '../tool/forget-action.js';
import { provideParts } from '../tool/lazy-parts.js';
import * as search from '../search/search.js';
import * as blame from '../tool/blame-action.js';
import * as approval from '../tool/approval.js';
import * as undo from '../tool/undo-action.js';
import * as writing from '../tool/write-part.js';

provideParts({ undo, history, treeReads, expire, forget, bundle, compact, search, blame, approval, writing, age: ageLibrary });

export * from '../index.js';
