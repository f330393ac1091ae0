// The fenced code blocks of a Markdown file: their language, their attributes (```ts run) and the line they open on,
// so that a failing example is named by file and line.

/** One fenced block: `lang` is the fence's first word, `attrs` the words after it. */
export interface CodeBlock {
  readonly file: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly attrs: ReadonlySet<string>;
  readonly code: string;
}

/** The languages whose blocks must compile; any other fence (`text`, `sh`, `json`, `html`) is not TypeScript. */
export const TYPESCRIPT_LANGS: ReadonlySet<string> = new Set(['ts', 'tsx', 'typescript']);

const OPENING = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$/;

/** Every fenced block of `markdown`, in order. An unclosed fence runs to the end, as CommonMark reads it. */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = OPENING.exec(lines[index] ?? '');
    if (open === null) continue;
    const [, , fence = '```', lang = '', rest = ''] = open;
    const body: string[] = [];
    let end = index + 1;
    // A closing fence is the same character, at least as long, and nothing after it.
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    while (end < lines.length && !closing.test(lines[end] ?? '')) {
      body.push(lines[end] ?? '');
      end += 1;
    }
    const attrs = new Set(rest.trim().split(/\s+/).filter((word) => word !== ''));
    blocks.push({ file, line: index + 1, lang: lang.toLowerCase(), attrs, code: body.join('\n') });
    index = end;
  }
  return blocks;
}

/** The blocks that are TypeScript examples: these must compile, and those marked `run` must run. */
export const typescriptBlocks = (blocks: readonly CodeBlock[]): CodeBlock[] =>
  blocks.filter((block) => TYPESCRIPT_LANGS.has(block.lang));
