// Reads a WebDAV `multistatus` (RFC 4918 §14.16) into the few DAV: properties the adapter uses. Our own small XML
// reader, namespace-aware (`D:`, `d:`, `lp1:` or a default xmlns all name DAV:), because workers have no DOMParser.
// It refuses a DOCTYPE (so no entity expansion) and anything not well-formed, with a SyntaxError.

const DAV = 'DAV:';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** One `<response>`: a member of the folder listed, or the folder itself. Its strings hold no part of the document. */
export interface DavEntry {
  /** As sent, entities decoded, still percent-encoded: an absolute path or an absolute URL. */
  href: string;
  /** The response's own status (a member the server could not describe), when it carries one. */
  status?: number;
  /** `resourcetype` holds `collection`. */
  collection: boolean;
  /** `getetag` as sent, e.g. `W/"6-5f1e…"`. */
  etag?: string;
  /** `getcontentlength`, in bytes. */
  contentLength?: number;
  /** `getlastmodified`, an HTTP date. */
  lastModified?: string;
}

interface XmlElement {
  ns: string;
  name: string;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string): string {
  return raw.replace(/&([^;&<]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw new SyntaxError(`multistatus: a bare & in ${JSON.stringify(raw.slice(0, 80))}`);
    const named = ENTITIES[body];
    if (named !== undefined) return named;
    const code = /^#x[0-9a-f]+$/i.test(body)
      ? parseInt(body.slice(2), 16)
      : /^#[0-9]+$/.test(body)
        ? Number(body.slice(1))
        : NaN;
    if (!Number.isInteger(code) || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 0) {
      throw new SyntaxError(`multistatus: unknown entity &${body};`);
    }
    return String.fromCodePoint(code);
  });
}

const NAME = /[^\s/>=]+/y;
const ATTRIBUTE = /\s+([^\s/>=]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;

function match(pattern: RegExp, xml: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(xml);
}

function skipPast(xml: string, at: number, end: string, what: string): number {
  const found = xml.indexOf(end, at);
  if (found < 0) throw new SyntaxError(`multistatus: unterminated ${what}`);
  return found + end.length;
}

/** The prefix's namespace in `scope`; an undeclared prefix is not well-formed (Namespaces in XML §5). */
function resolve(qname: string, scope: Map<string, string>, attribute: boolean): { ns: string; name: string } {
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  const name = colon < 0 ? qname : qname.slice(colon + 1);
  // An unprefixed attribute is in no namespace, whatever the default.
  if (prefix === '' && attribute) return { ns: '', name };
  if (prefix === 'xml') return { ns: XML_NS, name };
  const ns = scope.get(prefix);
  if (ns === undefined) {
    if (prefix === '') return { ns: '', name };
    throw new SyntaxError(`multistatus: undeclared prefix ${prefix}:`);
  }
  return { ns, name };
}

/** Parses a whole document into elements (namespaces resolved, text decoded); comments and PIs are skipped. */
function parseXml(xml: string): XmlElement {
  const stack: { element: XmlElement; qname: string; scope: Map<string, string> }[] = [];
  let root: XmlElement | undefined;
  let at = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const text = xml.slice(at, lt < 0 ? xml.length : lt);
    const top = stack[stack.length - 1];
    if (top !== undefined) top.element.text += decodeEntities(text);
    else if (text.trim() !== '') throw new SyntaxError('multistatus: text outside the root element');
    if (lt < 0) break;
    at = lt;
    if (xml.startsWith('<?', at)) at = skipPast(xml, at, '?>', 'processing instruction');
    else if (xml.startsWith('<!--', at)) at = skipPast(xml, at, '-->', 'comment');
    else if (xml.startsWith('<![CDATA[', at)) {
      const end = skipPast(xml, at, ']]>', 'CDATA section');
      if (top === undefined) throw new SyntaxError('multistatus: CDATA outside the root element');
      top.element.text += xml.slice(at + 9, end - 3);
      at = end;
    } else if (xml.startsWith('<!', at)) throw new SyntaxError('multistatus: a DOCTYPE or declaration is not accepted');
    else if (xml.startsWith('</', at)) {
      const end = skipPast(xml, at, '>', 'end tag');
      const qname = xml.slice(at + 2, end - 1).trim();
      if (top === undefined || top.qname !== qname) throw new SyntaxError(`multistatus: unexpected </${qname}>`);
      stack.pop();
      at = end;
    } else {
      const name = match(NAME, xml, at + 1);
      if (name === null) throw new SyntaxError('multistatus: a tag without a name');
      at = NAME.lastIndex;
      const attributes: [string, string][] = [];
      for (let attribute = match(ATTRIBUTE, xml, at); attribute !== null; attribute = match(ATTRIBUTE, xml, at)) {
        attributes.push([attribute[1] ?? '', decodeEntities(attribute[2] ?? attribute[3] ?? '')]);
        at = ATTRIBUTE.lastIndex;
      }
      const end = match(TAG_END, xml, at);
      if (end === null) throw new SyntaxError(`multistatus: malformed tag <${name[0]}`);
      at = TAG_END.lastIndex;
      const parentScope = top?.scope ?? new Map<string, string>();
      const declarations = attributes.filter(([key]) => key === 'xmlns' || key.startsWith('xmlns:'));
      const scope = declarations.length === 0 ? parentScope : new Map(parentScope);
      for (const [key, value] of declarations) scope.set(key === 'xmlns' ? '' : key.slice(6), value);
      for (const [key] of attributes) if (!declarations.some(([d]) => d === key)) resolve(key, scope, true);
      const element: XmlElement = { ...resolve(name[0], scope, false), children: [], text: '' };
      if (top !== undefined) top.element.children.push(element);
      else if (root === undefined) root = element;
      else throw new SyntaxError('multistatus: more than one root element');
      if (end[1] !== '/') stack.push({ element, qname: name[0], scope });
    }
  }
  if (stack.length > 0 || root === undefined) throw new SyntaxError('multistatus: the document ends early');
  return root;
}

/**
 * A copy of `text` that shares no memory with the document it was cut from. V8 keeps a cut of 13 characters or more
 * as a view of the whole string, so a version kept for a pass (an ETag of 20 characters) would keep its PROPFIND
 * answer (about 400 bytes a file) alive with it: 4 MB over a listing of 10,000 files. JSON's round trip makes a new
 * flat string, where a concatenation, `trim` or `normalize` may hand back the view itself.
 */
const detached = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

const davChildren = (element: XmlElement, name: string) =>
  element.children.filter((child) => child.ns === DAV && child.name === name);
const davChild = (element: XmlElement, name: string) => davChildren(element, name)[0];

/** `HTTP/1.1 404 Not Found` → 404. */
function statusCode(element: XmlElement | undefined): number | undefined {
  const code = element === undefined ? undefined : /^\s*HTTP\/[\d.]+\s+(\d{3})/.exec(element.text)?.[1];
  return code === undefined ? undefined : Number(code);
}

/** The properties of every 2xx `propstat` (a 404 one lists what the resource lacks). */
function readProps(response: XmlElement, entry: DavEntry): void {
  for (const propstat of davChildren(response, 'propstat')) {
    const status = statusCode(davChild(propstat, 'status'));
    if (status !== undefined && (status < 200 || status > 299)) continue;
    for (const prop of davChildren(propstat, 'prop')) {
      for (const property of prop.children) {
        if (property.ns !== DAV) continue;
        const value = property.text.trim();
        if (property.name === 'resourcetype') entry.collection ||= davChild(property, 'collection') !== undefined;
        else if (property.name === 'getetag' && value !== '') entry.etag = detached(value);
        else if (property.name === 'getlastmodified' && value !== '') entry.lastModified = detached(value);
        else if (property.name === 'getcontentlength' && /^\d+$/.test(value)) entry.contentLength = Number(value);
      }
    }
  }
}

/** Every `<response>` of a 207 body, in document order. Throws a SyntaxError when it is not a multistatus. */
export function parseMultistatus(xml: string): DavEntry[] {
  const root = parseXml(xml);
  if (root.ns !== DAV || root.name !== 'multistatus') {
    throw new SyntaxError(`multistatus: the root element is {${root.ns}}${root.name}, not {DAV:}multistatus`);
  }
  return davChildren(root, 'response').map((response) => {
    const href = davChild(response, 'href')?.text.trim();
    if (href === undefined || href === '') throw new SyntaxError('multistatus: a response without an href');
    const entry: DavEntry = { href: detached(href), collection: false };
    const status = statusCode(davChild(response, 'status'));
    if (status !== undefined) entry.status = status;
    readProps(response, entry);
    return entry;
  });
}
