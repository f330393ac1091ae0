// The command console: any of the six memory commands, built from form fields and run through
// tool.run(input, { actor: 'user' }) — so the history tells the person's commands from Claude's — with the exact
// tool_result content and is_error shown as Claude would receive them.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId } from '../page/dom.js';
import { storageFailure } from '../page/storage-failure.js';
import type { StorageFailure } from '../page/storage-failure.js';

export function setupCommandConsole(tool: IndexedDBMemoryTool, onStorageFailure: (failure: StorageFailure) => void): void {
  const form = byId('console-form', HTMLFormElement);
  const command = byId('console-command', HTMLSelectElement);
  const inputOut = byId('console-input', HTMLElement);
  const resultOut = byId('console-result', HTMLElement);
  const badge = byId('console-is-error', HTMLElement);
  const alert = byId('console-alert', HTMLElement);
  const value = (id: string) => {
    const field = document.getElementById(id);
    return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : '';
  };

  const showFields = () => {
    for (const field of form.querySelectorAll<HTMLElement>('[data-for]')) {
      field.hidden = !(field.dataset.for ?? '').split(' ').includes(command.value);
    }
  };
  command.addEventListener('change', showFields);
  showFields();

  const build = (): Record<string, unknown> => {
    const name = command.value;
    switch (name) {
      case 'view': {
        const input: Record<string, unknown> = { command: name, path: value('console-path') };
        // `1 10`, `1, 10` or, as JSON writes it, `[1, 10]`.
        const range = value('console-view-range').trim().replace(/^\[(.*)\]$/su, '$1');
        if (range !== '') input.view_range = range.split(/[\s,]+/).filter((token) => token !== '').map(numberOrText);
        return input;
      }
      case 'create':
        return { command: name, path: value('console-path'), file_text: value('console-file-text') };
      case 'str_replace':
        return { command: name, path: value('console-path'), old_str: value('console-old-str'), new_str: value('console-new-str') };
      case 'insert': {
        const input: Record<string, unknown> = { command: name, path: value('console-path') };
        // An empty field sends no insert_line, so the tool says it is missing rather than inserting at line 0.
        const line = value('console-insert-line').trim();
        if (line !== '') input.insert_line = numberOrText(line);
        input.insert_text = value('console-insert-text');
        return input;
      }
      case 'delete':
        return { command: name, path: value('console-path') };
      default:
        return { command: name, old_path: value('console-old-path'), new_path: value('console-new-path') };
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = build();
    inputOut.textContent = JSON.stringify(input, null, 2);
    resultOut.textContent = 'running…';
    badge.textContent = '';
    alert.hidden = true;
    void tool.run(input, { actor: 'user' }).then(({ content, is_error }) => {
      resultOut.textContent = content;
      resultOut.className = is_error ? 'code error' : 'code ok';
      badge.textContent = `is_error: ${is_error}`;
      badge.className = is_error ? 'badge error' : 'badge ok';
      const failure = storageFailure(content, is_error);
      if (failure) {
        alert.textContent = `${failure.title}. ${failure.advice}`;
        alert.hidden = false;
        onStorageFailure(failure);
      }
    });
  });
}

/** Decimal notation only: `Number()` would also read '', '0x10' or 'Infinity' as numbers. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * A typed token as the tool gets it: a number if it reads as one, otherwise the text itself, so the tool's
 * refusal echoes what the person typed (not `null`, which is what JSON makes of NaN).
 */
function numberOrText(token: string): number | string {
  const n = Number(token);
  return NUMBER.test(token) && Number.isFinite(n) ? n : token;
}
