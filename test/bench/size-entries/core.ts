// Size entry "core": what an app that only runs the tool imports. Must not pull in bundles or the agent.
export { IndexedDBMemoryTool, memoryTool } from '../../../src/index.js';
