// "A new version is ready — Reload": one small notice at the foot of the page, in its own labelled landmark, said by
// a live region; Reload is a plain button (keyboard reachable) and only the person's press reloads.

import './update-notice.css';

const NOTICE_ID = 'update-notice';

/** Shows the notice (once; a second offer keeps the first); `reload` runs when the person presses Reload. */
export function showUpdateNotice(reload: () => void): void {
  if (document.getElementById(NOTICE_ID) !== null) return;
  const notice = document.createElement('aside');
  notice.id = NOTICE_ID;
  notice.className = 'update-notice';
  notice.setAttribute('aria-label', 'New version');
  const status = document.createElement('p');
  status.setAttribute('role', 'status');
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Reload';
  button.addEventListener('click', () => {
    button.disabled = true;
    status.textContent = 'Reloading…';
    reload();
  });
  notice.append(status, button);
  document.body.append(notice);
  // Filled after it is in the page, so screen readers announce it.
  requestAnimationFrame(() => {
    status.textContent = 'A new version is ready.';
  });
}
