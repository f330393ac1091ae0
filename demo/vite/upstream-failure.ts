// The dev proxy's answer when the API could not be reached: a status and a body in the API's error shape whose
// message names the host and the cause (DNS, a refused connection, TLS, a timeout) the terminal would otherwise hold.

/** The API's error shape (`{ type: 'error', error: { type, message } }`), with a type of the proxy's own. */
export interface ProxyErrorBody {
  type: 'error';
  error: { type: 'proxy_error'; message: string };
}

/** The status the proxy answers with: 504 when the API took too long, 502 for any other failure to reach it. */
export interface UpstreamFailure {
  status: 502 | 504;
  body: ProxyErrorBody;
}

/** Node's error codes, by what they mean for someone at the keyboard. */
const CAUSES: readonly { codes: RegExp; says: string; timeout?: true }[] = [
  { codes: /^(?:ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)$/u, says: 'its name does not resolve (no network, or DNS fails here)' },
  { codes: /^ECONNREFUSED$/u, says: 'the connection was refused (nothing listens at that address)' },
  { codes: /^(?:ECONNRESET|EPIPE|ECONNABORTED)$/u, says: 'the connection was cut before an answer came' },
  { codes: /^(?:ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/u, says: 'it did not answer in time', timeout: true },
  { codes: /^(?:ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN)$/u, says: 'no route leads there from this machine (no network?)' },
  {
    codes: /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO)/u,
    says: 'the TLS connection failed (a certificate this machine does not trust, or something in between)',
  },
];

/** What `error` (an error from Node's HTTP client) means, said for the page, with the host of `target`. */
export function upstreamFailure(error: Error, target: string): UpstreamFailure {
  const code = errorCode(error);
  const cause = code === undefined ? undefined : CAUSES.find((known) => known.codes.test(code));
  const host = hostOf(target);
  const detail = code !== undefined && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  const message = cause
    ? `Could not reach ${host}: ${cause.says} — ${detail}`
    : `Could not reach ${host}: ${detail || code || 'the connection failed'}`;
  return { status: cause?.timeout ? 504 : 502, body: { type: 'error', error: { type: 'proxy_error', message } } };
}

function errorCode(error: Error): string | undefined {
  const code: unknown = Reflect.get(error, 'code');
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function hostOf(target: string): string {
  try {
    return new URL(target).host;
  } catch {
    return target;
  }
}
