// Size entry "whole library": every public export of every entry.
export * from '../../../src/index.js';
export * from '../../../src/entries/sdk.js';
export * from '../../../src/entries/agent.js';
export * from '../../../src/entries/offline.js';
