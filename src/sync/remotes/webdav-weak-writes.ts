// Our writes read back under a weak tag, looked at again once it is strong. Apache's ETag is size and mtime: another
// client's text of our size, written in the same mtime tick after our read-back (its If-Match passed with ours), gets
// our tag, and the engine would keep our text as agreed for good (README, "Remotes": same-size writes in one tick).

import type { RemoteFile } from '../remote.js';
import type { ReadText } from './webdav-read.js';
import { WEAK_ETAG_WAIT_MS } from './webdav-versions.js';

/** Reads a file's text and version, and whether the tag was weak. */
type Reader = (path: string) => Promise<ReadText>;

const ANOTHER = ';another-text';

export interface WeakWrites {
  /** A write of `text` read back under a weak tag `version`. */
  note(path: string, version: string, text: string): void;
  /** The listing, each noted file read again once its tag is strong: another text than ours shows another version. */
  check(files: RemoteFile[]): Promise<RemoteFile[]>;
  /** The engine read `path`: it has the text the version stands for, so the listing shows that version again. */
  read(path: string): void;
}

export function weakWrites(reader: Reader): WeakWrites {
  const noted = new Map<string, { version: string; text: string; at: number }>();
  const another = new Map<string, string>();
  const checked = async (file: RemoteFile): Promise<RemoteFile> => {
    const tagged = another.get(file.path);
    if (tagged !== undefined && tagged !== file.version) another.delete(file.path);
    const mine = noted.get(file.path);
    if (mine !== undefined && mine.version !== file.version) noted.delete(file.path);
    // Not read again before the tag can be strong (a GET then would only find it weak still).
    else if (mine !== undefined && Date.now() - mine.at >= WEAK_ETAG_WAIT_MS) {
      const there = await reader(file.path).catch(() => undefined);
      // Still weak (or unread now): looked at on a later listing.
      if (there !== undefined && !there.weak) {
        noted.delete(file.path);
        if (there.file.version === mine.version && there.text !== mine.text) another.set(file.path, mine.version);
      }
    }
    return another.get(file.path) === file.version ? { ...file, version: file.version + ANOTHER } : file;
  };
  return {
    note: (path, version, text) => void noted.set(path, { version, text, at: Date.now() }),
    check: (files) => {
      if (noted.size === 0 && another.size === 0) return Promise.resolve(files);
      const listed = new Set(files.map((file) => file.path));
      for (const map of [noted, another]) for (const path of map.keys()) if (!listed.has(path)) map.delete(path);
      return Promise.all(files.map(checked));
    },
    read: (path) => {
      noted.delete(path);
      another.delete(path);
    },
  };
}
