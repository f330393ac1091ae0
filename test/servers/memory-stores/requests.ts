// What the Memory Stores server reads from a request (body fields, `view`, `limit` and the `page` cursor) and the one
// way it refuses: ApiRefusal, an HTTP status with the API's error object.

import { Buffer } from 'node:buffer';
import type { Anthropic } from '@anthropic-ai/sdk';

export type ErrorObject = Anthropic.Beta.MemoryStores.BetaManagedAgentsErrorObject;
type View = Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryView;

/** A parsed JSON request body. */
export type Body = Record<string, unknown>;
/** A request's query parameters, each as sent (the SDK sends one value per name). */
export type Query = Record<string, string>;

/** A refusal in the API's words: the server answers `status` with `{type: 'error', error, request_id}`. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorObject,
  ) {
    super(error.message ?? error.type);
  }

  static invalid(message: string): ApiRefusal {
    return new ApiRefusal(400, { type: 'invalid_request_error', message });
  }
}

/** The most items a page holds, and the most with `view=full` (the API caps a larger `limit` there). */
export const MAX_PAGE = 100;
export const MAX_FULL_PAGE = 20;

/** Refuses a body that holds a field the call does not take, as the API refuses unknown fields. */
export function onlyFields(body: Body, allowed: readonly string[]): void {
  const unknown = Object.keys(body).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw ApiRefusal.invalid(`${unknown}: Extra inputs are not permitted`);
}

/** `body[name]` when it has the type asked for; undefined when absent or null; else a 400. */
export function field(body: Body, name: string, type: 'string'): string | undefined;
export function field(body: Body, name: string, type: 'object'): Record<string, unknown> | undefined;
export function field(body: Body, name: string, type: 'string' | 'object'): unknown {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const ok = type === 'string' ? typeof value === 'string' : typeof value === 'object' && !Array.isArray(value);
  if (!ok) throw ApiRefusal.invalid(`${name} must be ${type === 'string' ? 'a string' : 'an object'}`);
  return value;
}

export function viewOf(query: Query, fallback: View): View {
  const view = query.view ?? fallback;
  if (view !== 'basic' && view !== 'full') throw ApiRefusal.invalid('view must be "basic" or "full"');
  return view;
}

// A cursor is opaque to clients: here the last key shown and the listing it belongs to, in base64url JSON.
interface Cursor {
  after: string;
  scope: string;
}

function encodeCursor(cursor: Cursor): string {
  return `page_${Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url')}`;
}

function decodeCursor(page: string, scope: string): string {
  let cursor: Partial<Cursor> | undefined;
  try {
    cursor = JSON.parse(Buffer.from(page.replace(/^page_/, ''), 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    cursor = undefined;
  }
  if (!page.startsWith('page_') || typeof cursor?.after !== 'string')
    throw ApiRefusal.invalid('page is not a valid cursor');
  if (cursor.scope !== scope) throw ApiRefusal.invalid('page belongs to a listing with other parameters');
  return cursor.after;
}

/** The page size and the key to start after, from `limit` and `page`; `scope` names the listing's other parameters. */
export function pageParams(
  query: Query,
  view: View,
  pageSize: number,
  scope: string,
): { limit: number; after: string | undefined } {
  const asked = query.limit === undefined ? pageSize : Number(query.limit);
  if (!Number.isInteger(asked) || asked < 1 || asked > MAX_PAGE)
    throw ApiRefusal.invalid(`limit must be 1 to ${MAX_PAGE}`);
  const limit = view === 'full' ? Math.min(asked, MAX_FULL_PAGE) : asked;
  const after = query.page === undefined || query.page === '' ? undefined : decodeCursor(query.page, scope);
  return { limit, after };
}

/** The first `limit` of `rest`, and the cursor to the others when there are any. */
export function pageOf<T>(
  rest: readonly T[],
  limit: number,
  keyOf: (item: T) => string,
  scope: string,
): { data: T[]; next_page: string | null } {
  const data = rest.slice(0, limit);
  const last = data.at(-1);
  return {
    data,
    next_page: rest.length > limit && last !== undefined ? encodeCursor({ after: keyOf(last), scope }) : null,
  };
}
