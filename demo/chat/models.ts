// The Model field's suggestions: the models the connection's key can use (the API's model list), else a few the
// SDK names. The field stays free text: any model id can be typed. Asks the API only when the field is focused,
// loading the SDK then (lazy-code.ts): the SDK's own list is copied here, so the first load holds none of it.

import type { Model } from '@anthropic-ai/sdk/resources/messages';
import type { AgentConnection } from '../../src/entries/agent.js';
import { el } from '../page/dom.js';
import { loadAgent } from '../page/lazy-code.js';
import { DEFAULT_MODEL } from './default-model.js';

export { DEFAULT_MODEL };

/** The ids the SDK's `Model` type names, without its `(string & {})` that lets any other id through. */
export type SdkModel = Model extends infer M ? (M extends string ? (string extends M ? never : M) : never) : never;

/**
 * A few of the SDK's own model ids (`Model` in @anthropic-ai/sdk's resources/messages, the same in 1.16 and 1.17),
 * newest Sonnet (the default) first. Types are gone at runtime, so they are copied; the compiler checks each one.
 */
export const SDK_MODELS = [
  DEFAULT_MODEL,
  'claude-opus-5-5',
  'claude-haiku-5-5',
  'claude-sonnet-4-6',
  'claude-opus-4-8',
  'claude-haiku-4-5',
] as const satisfies readonly SdkModel[];

const ANY_ID = 'Any model id can be typed.';

/** A model the datalist offers: its id, and the name the API gives it. */
interface Choice {
  id: string;
  name?: string;
}

/**
 * Fills `list` (the datalist of `field`) and says in `help` where the suggestions come from. `connection()` is how
 * the page connects now (undefined: not at all); a new connection is asked for its models the next time the field
 * is focused.
 */
export function setupModelList(
  field: HTMLInputElement,
  list: HTMLDataListElement,
  help: HTMLElement,
  connection: () => Pick<AgentConnection, 'apiKey' | 'baseURL'> | undefined,
): void {
  /** The connection the list is for (JSON of its key and URL); a request's answer for another is dropped. */
  let listedFor: string | undefined;

  const show = (choices: readonly Choice[], source: string) => {
    list.replaceChildren(...choices.map(({ id, name }) => el('option', { attrs: { value: id, ...(name ? { label: name } : {}) } })));
    help.textContent = `${source} ${ANY_ID}`;
  };
  const sdkList = SDK_MODELS.map((id) => ({ id }));

  const refresh = async () => {
    const how = connection();
    const signature = JSON.stringify(how ?? null);
    if (signature === listedFor) return;
    listedFor = signature;
    if (!how) {
      show(sdkList, 'Suggestions: models the SDK names.');
      return;
    }
    help.textContent = 'Asking the API which models this connection can use…';
    const where = `GET ${(how.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/u, '')}/v1/models`;
    let describe: Awaited<ReturnType<typeof loadAgent>>['describeAgentError'] | undefined;
    try {
      const { createAgentClient, describeAgentError } = await loadAgent();
      describe = describeAgentError;
      // Only suggestions: a failure falls back at once rather than after the SDK's retries.
      const client = createAgentClient({ ...how, maxRetries: 0 });
      const choices: Choice[] = [];
      for await (const model of client.models.list({ limit: 100 })) {
        choices.push({ id: model.id, name: model.lifecycle === 'deprecated' ? `${model.display_name} (deprecated)` : model.display_name });
      }
      if (listedFor !== signature) return;
      if (choices.length === 0) throw new Error('The API listed no models.');
      show(choices, `Suggestions: the ${choices.length} models this connection can use (from the API).`);
    } catch (error) {
      if (listedFor !== signature) return;
      const failure = describe?.(error);
      const why = !failure
        ? `${where} was not tried: the SDK did not load`
        : failure.status !== undefined
          ? `${where} answered ${failure.status}`
          : `${where}: ${failure.title}`;
      show(sdkList, `The models could not be listed (${why}); suggestions: models the SDK names.`);
    }
  };

  show(sdkList, 'Suggestions: models the SDK names.');
  field.addEventListener('focus', () => void refresh());
}

