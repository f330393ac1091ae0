// What the SDK's tool runner yields for one request, as a message: a stream's final message when streaming, else the
// message itself, checked, since a server that is not the API can answer 200 with a page the SDK passes on as text.

import type { BetaMessage } from '../core/sdk-types.js';
import { NOT_A_MESSAGE } from './errors.js';

/** The message of a runner's item; throws for an answer that is not one (a page where JSON should be). */
export async function replyOf(item: BetaMessage | { finalMessage(): Promise<BetaMessage> }): Promise<BetaMessage> {
  const message: unknown = 'finalMessage' in item ? await item.finalMessage() : item;
  const content = (typeof message === 'object' && message !== null ? message : {}) as { content?: unknown };
  if (!Array.isArray(content.content)) throw new Error(`${NOT_A_MESSAGE}: ${JSON.stringify(message).slice(0, 80)}`);
  return message as BetaMessage;
}
