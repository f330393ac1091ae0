// The entry the tool loads on the first export or import: everything below it, and nothing else, lands in that chunk.

export { exportBundle } from './export-bundle.js';
export { importBundle } from './import-bundle.js';
export { importChanges } from './format.js';
export { useAgeLoader } from './age-loader.js';
