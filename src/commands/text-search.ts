// Finding old_str in time linear in the file's length (R-replace-match, R-replace-many in ./README.md); UTF-16 offsets.

/** The first two starts of `needle` in `text` (overlapping ones count), -1 where there is none. */
export function firstTwo(text: string, needle: string): [number, number] {
  const first = text.indexOf(needle);
  return [first, first === -1 ? -1 : text.indexOf(needle, first + 1)];
}

/** The 1-based line of `text` on which UTF-16 offset `at` falls. */
export function lineOf(text: string, at: number): number {
  let line = 1;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < at; nl = text.indexOf('\n', nl + 1)) line++;
  return line;
}

/** The distinct lines on which matches start: the first `keep` of them, and how many there are in all. */
export interface MatchLines {
  lines: number[];
  total: number;
}

/** Every line a match of `needle` starts on, in one KMP pass; only the first `keep` are kept, the rest counted. */
export function matchLines(text: string, needle: string, keep = Infinity): MatchLines {
  const m = needle.length;
  const fail = failureTable(needle);
  // A match ends at `i`: its start is on the current line less the newlines of the needle before its last unit.
  let newlinesBeforeLast = 0;
  for (let i = 0; i < m - 1; i++) if (needle.charCodeAt(i) === 10) newlinesBeforeLast++;
  const lines: number[] = [];
  let total = 0;
  let last = 0;
  let line = 1;
  let k = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const unit = text.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== unit) k = fail[k - 1] ?? 0;
    if (needle.charCodeAt(k) === unit && ++k === m) {
      const startLine = line - newlinesBeforeLast;
      if (startLine !== last) {
        last = startLine;
        total++;
        if (lines.length < keep) lines.push(startLine);
      }
      k = fail[m - 1] ?? 0;
    }
    if (unit === 10) line++;
  }
  return { lines, total };
}

/** KMP's table: for each prefix of `needle`, the length of its longest proper prefix that is also its suffix. */
function failureTable(needle: string): Int32Array {
  const fail = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    const unit = needle.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== unit) k = fail[k - 1] ?? 0;
    if (needle.charCodeAt(k) === unit) k++;
    fail[i] = k;
  }
  return fail;
}
