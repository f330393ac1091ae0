// The Memory pane's editor: New file, Edit in place, Rename and Delete, each a form in place of the viewer until it
// is done or cancelled (Cancel or Escape). Each is the person's write through the tool's app API (actor `user`), so it
// shows in the History panel and Undo there takes it back; a refusal is the tool's own words, and the form stays.

import type { IndexedDBMemoryTool, MemoryCommand, isMemoryToolError } from '../../src/index.js';
import { byId, el, focusLost, messageOf } from '../page/dom.js';
import type { MemoryPanel } from './memory-panel.js';
import './memory-editor.css';

type MemoryAction = 'new' | 'edit' | 'rename' | 'delete';

/** The `source` of the person's writes from the pane, kept in their history entries. */
const SOURCE = 'memory-pane';

/** A refusal by the pane's own rule (New file does not overwrite), shown as the tool's refusals are. */
class PaneRefusal extends Error {}

interface FormSpec {
  title: string;
  fields: HTMLElement[];
  submit: string;
  danger?: boolean;
  /** Where the keyboard starts. */
  first: HTMLElement | 'cancel';
  /** Does the write; resolves to what the status line says, or rejects with the refusal. */
  act(): Promise<string>;
  /** Where the keyboard goes once it is done (default: the button that opened the form). */
  after?: () => HTMLElement;
}

/**
 * Puts the buttons New file, Edit, Rename… and Delete… under the viewer's path. The last three act on the file the
 * viewer shows, read from its heading as the blame gutter reads it, and show only while there is one.
 */
export function setupMemoryEditor(
  tool: IndexedDBMemoryTool,
  panel: Pick<MemoryPanel, 'open'>,
  isRefusal: typeof isMemoryToolError,
): void {
  const viewerPath = byId('viewer-path', HTMLElement);
  const status = byId('memory-status', HTMLElement);
  const button = (text: string) => el('button', { text, attrs: { type: 'button' } });
  const buttons = { new: button('New file'), edit: button('Edit'), rename: button('Rename…'), delete: button('Delete…') };
  const bar = el('div', { className: 'buttons', attrs: { role: 'group', 'aria-label': 'File actions' } }, ...Object.values(buttons));
  const area = el('div', { className: 'memory-editor' });
  viewerPath.after(bar, area);
  const wrap = area.parentElement;
  // The heading holds the path, or the path and what went wrong, or a prompt to choose a file.
  const current = () => {
    const heading = viewerPath.textContent ?? '';
    return heading.startsWith('/') ? heading.split(': ')[0] : undefined;
  };
  let opener: HTMLButtonElement | undefined;
  let made = 0;

  const close = (message: string, focus?: HTMLElement) => {
    area.replaceChildren();
    wrap?.classList.remove('memory-editing');
    status.textContent = message;
    const back = focus ?? opener;
    opener = undefined;
    // A button hidden meanwhile (the file is gone) cannot take the keyboard: New file always can.
    if (back && back.isConnected && !back.hidden) back.focus();
    else if (focusLost()) buttons.new.focus();
  };

  const show = (from: HTMLButtonElement, spec: FormSpec) => {
    opener = from;
    const id = `memory-edit-${++made}`;
    const refusal = el('p', { className: 'alert', attrs: { role: 'alert' } });
    refusal.hidden = true;
    const submit = el('button', { text: spec.submit, attrs: { type: 'submit' } });
    if (spec.danger) submit.classList.add('danger');
    const cancel = el('button', { text: 'Cancel', attrs: { type: 'button' } });
    const form = el(
      'form',
      { className: 'memory-edit', attrs: { 'aria-labelledby': `${id}-title`, novalidate: '' } },
      el('h3', { text: spec.title, attrs: { id: `${id}-title` } }),
      ...spec.fields,
      refusal,
      el('div', { className: 'buttons' }, submit, cancel),
    );
    let busy = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (busy) return;
      busy = true;
      spec.act().then(
        (message) => close(message, spec.after?.()),
        (error: unknown) => {
          busy = false;
          // What the person typed stays; the refusal says why, in the words Claude would get.
          const refused = isRefusal(error) || error instanceof PaneRefusal;
          refusal.textContent = refused ? error.message : `It failed, nothing was changed: ${messageOf(error)}`;
          refusal.hidden = false;
        },
      );
    });
    cancel.addEventListener('click', () => close('Cancelled; nothing was changed.'));
    form.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      event.preventDefault();
      close('Cancelled; nothing was changed.');
    });
    area.replaceChildren(form);
    wrap?.classList.add('memory-editing');
    status.textContent = '';
    (spec.first === 'cancel' ? cancel : spec.first).focus();
  };

  /** A labelled field: an input on one line, or a textarea for a file's text. */
  const field = (label: string, control: HTMLInputElement | HTMLTextAreaElement): HTMLElement => {
    control.id = `memory-edit-${++made}`;
    control.setAttribute('autocomplete', 'off');
    control.spellcheck = false;
    return el('div', { className: 'field' }, el('label', { text: label, attrs: { for: control.id } }), control);
  };
  const pathInput = (value: string) => {
    const input = el('input', { attrs: { type: 'text' } });
    input.value = value;
    return input;
  };

  /** The person's command, journaled as `user` from the pane; refused as Claude's would be. */
  const run = (command: MemoryCommand) => tool.execute(command, { actor: 'user', source: SOURCE });
  const undoHint = 'Undo in the History panel takes it back.';

  const actions: Record<MemoryAction, (from: HTMLButtonElement) => Promise<void> | void> = {
    new: (from) => {
      const path = pathInput('/memories/');
      const text = el('textarea', { className: 'memory-edit-text' });
      show(from, {
        title: 'New file',
        fields: [field('Path', path), field('Text', text)],
        submit: 'Create',
        first: path,
        act: async () => {
          // The pane's New file makes a file: an existing one is edited with Edit, never overwritten from here.
          const existing = await tool.stat(path.value).then(
            (entry) => entry,
            (error: unknown) => {
              if (isRefusal(error) && error.code === 'not_found') return undefined;
              throw error;
            },
          );
          if (existing) throw new PaneRefusal(`${existing.path} already exists: open it and press Edit, or choose another path.`);
          await tool.write(path.value, text.value, { source: SOURCE });
          const made = (await tool.stat(path.value)).path;
          await panel.open(made);
          return `Created ${made}. ${undoHint}`;
        },
      });
    },
    edit: async (from) => {
      const path = current();
      if (path === undefined) return;
      let before: string;
      try {
        before = await tool.read(path);
      } catch (error) {
        status.textContent = `${path} cannot be edited: ${messageOf(error)}`;
        return;
      }
      const text = el('textarea', { className: 'memory-edit-text' });
      text.value = before;
      show(from, {
        title: `Edit ${path}`,
        fields: [field('Text', text)],
        submit: 'Save',
        first: text,
        act: async () => {
          if (text.value === before) return 'No change to save.';
          await tool.write(path, text.value, { source: SOURCE });
          return `Saved ${path}. ${undoHint}`;
        },
      });
    },
    rename: (from) => {
      const path = current();
      if (path === undefined) return;
      const to = pathInput(path);
      show(from, {
        title: `Rename ${path}`,
        fields: [field('New path', to)],
        submit: 'Rename',
        first: to,
        act: async () => {
          await run({ command: 'rename', old_path: path, new_path: to.value });
          const moved = (await tool.stat(to.value)).path;
          await panel.open(moved);
          return `Renamed ${path} to ${moved}. ${undoHint}`;
        },
      });
    },
    delete: (from) => {
      const path = current();
      if (path === undefined) return;
      show(from, {
        title: `Delete ${path}?`,
        fields: [el('p', { className: 'help', text: 'It goes from the memory. Undo in the History panel brings it back.' })],
        submit: 'Delete',
        danger: true,
        // The safe answer has the keyboard: Enter right away changes nothing.
        first: 'cancel',
        act: async () => {
          await run({ command: 'delete', path });
          return `Deleted ${path}. ${undoHint}`;
        },
        // Edit, Rename and Delete hide with the file.
        after: () => buttons.new,
      });
    },
  };

  for (const [action, each] of Object.entries(buttons) as Array<[MemoryAction, HTMLButtonElement]>) {
    each.addEventListener('click', () => void actions[action](each));
  }
  const follow = () => {
    for (const each of [buttons.edit, buttons.rename, buttons.delete]) each.hidden = current() === undefined;
  };
  new MutationObserver(follow).observe(viewerPath, { childList: true, characterData: true, subtree: true });
  follow();
}
