// A module service worker on `idb-memory-tool/worker`: every part loaded with it, so the whole API works here.

import * as lib from '../../../src/entries/worker.js';
import { serveService } from './worker-serve.js';

serveService(lib);
