// A module service worker on the main entry, `idb-memory-tool`: Claude's six commands work, the parts it would load
// with `import()` cannot load here (a service worker may not call it), which the test checks.

import * as lib from '../../../src/index.js';
import { serveService } from './worker-serve.js';

serveService(lib);
