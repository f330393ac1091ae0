// The public API: every export users may rely on, by name. Nothing else in src/ is public.

export { IndexedDBMemoryTool, DEFAULT_DB_NAME } from './tool.js';
export type { IndexedDBMemoryToolOptions, MemoryToolResult } from './tool.js';
export { memoryTool } from './runnable.js';
export type { MemoryCommandRunner, MemoryToolExtraProps } from './runnable.js';
export { MemoryToolError, isMemoryToolError } from './errors.js';
export type { MemoryToolErrorCode } from './errors.js';
export { normalizeMemoryPath, MEMORY_ROOT, PATH_LIMITS } from './paths.js';
export { parseMemoryCommand } from './input.js';
export type { MemoryCommand, MemoryCommandName } from './input.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { MemoryLimits } from './limits.js';
export { DB_VERSION } from './schema.js';
export type { MemoryChange } from './commands.js';
export type { MemoryChangeEvent, MemoryChangeListener } from './events.js';
