// The few DOM helpers the demo's panels share: typed lookups and element building. Text goes in only through
// textContent: memory files and Claude's words are data, never markup.

/** The element with `id`, checked to be of `type`; a missing one is a bug in index.html, so it throws. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`index.html has no <${type.name}> #${id}`);
  return element;
}

type Props = { className?: string; text?: string; title?: string; attrs?: Record<string, string> };

/** A new element with a class, text (as textContent) and attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.text !== undefined) element.textContent = props.text;
  if (props.title !== undefined) element.title = props.title;
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * Whether keyboard focus has fallen to <body>, as it does when the focused button is disabled or hidden while it
 * works. The panels then put it back, so keyboard and screen-reader users keep their place.
 */
export function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** `message` of anything thrown, for a status line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
