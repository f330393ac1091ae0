// The page of test/e2e/react-hook.test.ts. `?db=<name>&view`: a React app (StrictMode) that opens its tool
// asynchronously, as apps do, and shows the tree and /memories/notes.md through useMemoryTree and useMemoryFile; it
// never writes. `?db=<name>` alone: a tab with its own tool that writes when the test calls `window.reactHook.run`.

import { StrictMode, createElement, useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { IndexedDBMemoryTool } from '../../../src/index.js';
import type { MemoryToolResult } from '../../../src/index.js';
import { useMemoryFile, useMemoryTree } from '../../../src/entries/react.js';

export interface ReactHookPage {
  run(input: unknown): Promise<MemoryToolResult>;
}

declare global {
  interface Window {
    reactHook: ReactHookPage;
  }
}

const params = new URLSearchParams(location.search);
const dbName = params.get('db') ?? 'react-hook';
const NOTES = '/memories/notes.md';

/** The tool once opened; undefined until then, and closed on unmount (StrictMode's first mount included). */
function useTool(): IndexedDBMemoryTool | undefined {
  const [tool, setTool] = useState<IndexedDBMemoryTool>();
  useEffect(() => {
    let opened: IndexedDBMemoryTool | undefined;
    let cancelled = false;
    void IndexedDBMemoryTool.init({ dbName }).then((ready) => {
      opened = ready;
      if (cancelled) ready.close();
      else setTool(ready);
    });
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, []);
  return tool;
}

function App(): ReactElement {
  const tool = useTool();
  const tree = useMemoryTree(tool);
  const notes = useMemoryFile(tool, NOTES);
  return createElement(
    'main',
    null,
    createElement(
      'ul',
      { id: 'tree', 'data-status': tree.status },
      tree.entries.map((entry) => createElement('li', { key: entry.path }, entry.path)),
    ),
    createElement('pre', { id: 'notes', 'data-status': notes.status }, notes.text ?? ''),
  );
}

if (params.has('view')) {
  createRoot(document.getElementById('root')!).render(createElement(StrictMode, null, createElement(App)));
  window.reactHook = {
    run: () => Promise.reject(new Error('the viewing tab does not write')),
  };
  document.body.dataset.ready = 'true';
} else {
  const tool = await IndexedDBMemoryTool.init({ dbName });
  window.reactHook = { run: (input) => tool.run(input) };
  document.body.dataset.ready = 'true';
}
