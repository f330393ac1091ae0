// A module shared worker on the main entry: it may `import()`, so the parts load on first use as in a page.

import * as lib from '../../../src/index.js';
import { serveShared } from './worker-serve.js';

serveShared(lib);
