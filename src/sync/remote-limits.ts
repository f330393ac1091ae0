// What a remote refuses that we can tell before sending: the file's size, the store's count, the path's length.

import { utf8Length } from '../core/utf8.js';
import type { RemoteLimits } from './remote.js';

/** Why `limits` refuse `text` at `path` when the remote would then hold `count` files, or undefined. */
export function remoteRefusal(limits: RemoteLimits, path: string, text: string, count: number): string | undefined {
  const size = utf8Length(text);
  if (limits.maxFileBytes !== undefined && size > limits.maxFileBytes) {
    return `it is ${size} bytes, over the remote's limit of ${limits.maxFileBytes} a file`;
  }
  if (limits.maxPathBytes !== undefined && utf8Length(path) > limits.maxPathBytes) {
    return `its path is over the remote's limit of ${limits.maxPathBytes} bytes`;
  }
  if (limits.maxSegments !== undefined && path.split('/').length - 1 > limits.maxSegments) {
    return `its path is deeper than the remote's limit of ${limits.maxSegments} names`;
  }
  if (limits.maxFiles !== undefined && count > limits.maxFiles) {
    return `the remote holds its limit of ${limits.maxFiles} files`;
  }
  return undefined;
}
