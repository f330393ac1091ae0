// The bundles panel's encryption controls: an encrypted export (a passphrase typed twice, its strength shown) and
// the key an encrypted import needs (a passphrase, or an identity file as age-keygen writes it). Built here and put
// into the panel, so index.html keeps only the plain controls.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId, el, messageOf } from '../page/dom.js';
// The panel's styles come with it: the first time the panel shows, before anyone reads its selects.
import './bundle-panel.css';

/** What the panel reads of the import's key, and where a "key needed" refusal sends the keyboard. */
export interface ImportKey {
  options(): { passphrase?: string; identity?: string };
  focus(): void;
}

/** The encrypted export's controls, after the export buttons; `download` saves the file and names it. */
export function setupEncryptedExport(tool: IndexedDBMemoryTool, download: (blob: Blob, extension: string) => string): void {
  const status = byId('bundle-status', HTMLElement);
  const passphrase = passwordInput('bundle-passphrase', 'new-password');
  const confirm = passwordInput('bundle-passphrase-confirm', 'new-password');
  const strength = el('p', { className: 'help', attrs: { id: 'bundle-passphrase-strength', 'aria-live': 'polite' } });
  passphrase.setAttribute('aria-describedby', strength.id);
  const button = el('button', { text: 'Export encrypted', attrs: { type: 'button', id: 'bundle-export-encrypted' } });
  const group = el(
    'fieldset',
    { className: 'bundle-encryption' },
    el('legend', { text: 'Encrypted export (age)' }),
    el('p', { className: 'help', text: 'The bundle inside an age file that only this passphrase opens, here or with age -d. Nothing can recover a lost passphrase.' }),
    el('div', { className: 'field' }, el('label', { text: 'Passphrase', attrs: { for: passphrase.id } }), passphrase),
    strength,
    el('div', { className: 'field' }, el('label', { text: 'Confirm passphrase', attrs: { for: confirm.id } }), confirm),
    el('div', { className: 'buttons' }, button),
  );
  byId('bundle-export-zip', HTMLButtonElement).closest('.buttons')?.after(group);
  passphrase.addEventListener('input', () => {
    strength.textContent = passphrase.value === '' ? '' : strengthOf(passphrase.value);
  });
  button.addEventListener('click', () => {
    if (passphrase.value === '') {
      status.textContent = 'Type a passphrase to encrypt the export with.';
      passphrase.focus();
      return;
    }
    if (confirm.value !== passphrase.value) {
      status.textContent = 'The two passphrases differ; type the same one twice.';
      confirm.focus();
      return;
    }
    status.textContent = 'Encrypting the export (scrypt takes a few seconds)…';
    button.disabled = true;
    void tool
      .exportBundle({ passphrase: passphrase.value })
      .then(
        (blob) => {
          const name = download(blob, 'json.age');
          passphrase.value = '';
          confirm.value = '';
          strength.textContent = '';
          status.textContent = `Exported ${name} (${blob.size} bytes), encrypted with your passphrase.`;
        },
        (error: unknown) => {
          status.textContent = `Export failed: ${messageOf(error)}`;
        },
      )
      .finally(() => {
        button.disabled = false;
      });
  });
}

/** The import's key controls, before the import options; `changed` checks the chosen file again. */
export function setupImportKey(changed: () => void): ImportKey {
  const file = byId('bundle-file', HTMLInputElement);
  file.accept = `${file.accept},.age`;
  const passphrase = passwordInput('bundle-import-passphrase', 'current-password');
  const identity = el('input', { attrs: { id: 'bundle-identity', type: 'file', accept: '.txt,.key,text/plain' } });
  let identityText: string | undefined;
  const group = el(
    'fieldset',
    { className: 'bundle-encryption' },
    el('legend', { text: 'Key of an encrypted bundle (.age)' }),
    el('div', { className: 'field' }, el('label', { text: 'Bundle passphrase', attrs: { for: passphrase.id } }), passphrase),
    el('div', { className: 'field' }, el('label', { text: 'or an identity file (age-keygen)', attrs: { for: identity.id } }), identity),
  );
  file.closest('.field')?.after(group);
  passphrase.addEventListener('change', changed);
  identity.addEventListener('change', () => {
    const picked = identity.files?.[0];
    identityText = undefined;
    if (!picked) return changed();
    void picked.text().then((text) => {
      identityText = text;
      changed();
    });
  });
  return {
    options: () => ({
      ...(passphrase.value === '' ? {} : { passphrase: passphrase.value }),
      ...(identityText === undefined ? {} : { identity: identityText }),
    }),
    focus: () => passphrase.focus(),
  };
}

/**
 * A rough strength: the bits a guesser faces if the characters were random, from its length and the kinds of
 * characters it uses. Only a hint: a phrase from a song scores high and is weak.
 */
export function strengthOf(passphrase: string): string {
  const classes: [RegExp, number][] = [[/[a-z]/u, 26], [/[A-Z]/u, 26], [/[0-9]/u, 10], [/[^a-zA-Z0-9]/u, 33]];
  const alphabet = classes.reduce((sum, [kind, size]) => sum + (kind.test(passphrase) ? size : 0), 0);
  const bits = Math.round([...passphrase].length * Math.log2(Math.max(alphabet, 2)));
  if (bits < 50) return `Weak (at most about ${bits} bits): use four or five random words, or 12 random characters.`;
  if (bits < 80) return `Fair (at most about ${bits} bits), if it is random; longer is safer.`;
  return `Strong (at most about ${bits} bits), if it is random and not a phrase others could guess.`;
}

function passwordInput(id: string, autocomplete: string): HTMLInputElement {
  return el('input', { attrs: { id, type: 'password', autocomplete, spellcheck: 'false' } });
}
