// Building `claude-memory-bundle` text in tests: a file entry with its SHA-256, the bundle around entries (valid or
// not), a bundle of path -> content. One copy for every test that imports a bundle.

import type { BundleFile } from '../../src/bundle/format.js';

/** The times every built entry (and the bundle's `exportedAt`) carries. */
export const TIME = '2024-05-06T07:08:09.010Z';
export const EMPTY_SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Lowercase hex SHA-256 of a text's UTF-8, or of a Blob's bytes. */
export async function sha256(data: string | Blob): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : await data.arrayBuffer();
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A valid file entry. */
export async function file(path: string, content: string): Promise<BundleFile> {
  return entry(path, content, await sha256(content));
}

/** Bundle text around `files` and `folders` as given, so a test can put anything in them. */
export function bundleText(files: unknown[], folders: unknown[] = []): string {
  return JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: TIME, files, folders });
}

/** A valid bundle of `files` (path -> content) and empty `folders`; each distinct content is hashed once. */
export async function bundleOf(files: Record<string, string>, folders: string[] = []): Promise<string> {
  const digests = new Map<string, Promise<string>>();
  const entries = Object.entries(files).map(async ([path, content]) => {
    let digest = digests.get(content);
    if (!digest) digests.set(content, (digest = sha256(content)));
    return entry(path, content, await digest);
  });
  return bundleText(await Promise.all(entries), folders);
}

function entry(path: string, content: string, digest: string): BundleFile {
  return { path, content, createdAt: TIME, updatedAt: TIME, sha256: digest };
}
