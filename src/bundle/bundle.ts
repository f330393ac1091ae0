// The entry the tool loads on the first export or import (tool/lazy-parts.ts): everything below it, and nothing
// else, lands in that chunk. How an import works: README.md in this folder.

export { exportBundle } from './export-bundle.js';
export { importBundle } from './import-bundle.js';
export { importChanges } from './format.js';
