// Size entry "core": what an app that only runs the tool imports. Must not pull in bundles or the agent.
export { IndexedDBMemoryTool } from '../../../src/index.js';
export { memoryTool } from '../../../src/entries/sdk.js';
