// The names conflict copies take: the original name with `.conflict-<time>-<tag>` before its extension, so a copy
// sorts beside its file, keeps its type, and is recognised on every device that syncs it.

const COPY = /\.conflict-(\d{8}-\d{6})-([0-9a-z]{4})(?=\.[^./]*$|$)/u;

/** `/a/notes.md` → `/a/notes.conflict-20261205-015501-k3f2.md` (UTC time, a random tag against same-second copies). */
export function conflictName(path: string, now: Date, tag: string = randomTag()): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  // A dot-name (`.env`) or a name without a dot has no extension to keep.
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const stamp = now.toISOString().replace(/[-:]/gu, '').replace('T', '-').slice(0, 15);
  return `${path.slice(0, slash + 1)}${stem}.conflict-${stamp}-${tag}${extension}`;
}

/** For a conflict copy, the path of the file it is a copy of; otherwise undefined. */
export function originalOf(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const match = COPY.exec(name);
  if (!match) return undefined;
  return path.slice(0, slash + 1) + name.slice(0, match.index) + name.slice(match.index + match[0].length);
}

/** When a conflict copy was made, from its name. */
export function copiedAt(path: string): Date | undefined {
  const match = COPY.exec(path.slice(path.lastIndexOf('/') + 1));
  const digits = match?.[1];
  if (!digits) return undefined;
  const iso = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}T${digits.slice(9, 11)}:${digits.slice(11, 13)}:${digits.slice(13, 15)}Z`;
  return new Date(iso);
}

function randomTag(): string {
  return Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
}
