// Size entry "whole library": every public export.
export * from '../../../src/index.js';
