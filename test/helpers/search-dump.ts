// Every store of a database read raw (no idb, no schema): each key and value walked, typed arrays and Blobs decoded as
// text every way they could hold a word, so a test can say that no trace of a word is left anywhere.

/** One piece of text found in the database, and where. */
export interface DumpedText {
  store: string;
  where: string;
  text: string;
}

const request = <T>(req: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

function openRaw(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error(`cannot open ${name}`));
    req.onblocked = () => reject(new Error(`opening ${name} is blocked`));
  });
}

const decoders = [
  new TextDecoder('utf-8'),
  new TextDecoder('utf-16le'),
  new TextDecoder('utf-16be'),
  new TextDecoder('latin1'),
];

/** Text a byte run could hold, in each encoding a word might be stored in. */
function decodings(bytes: Uint8Array): string[] {
  return decoders.map((decoder) => decoder.decode(bytes));
}

/** Walks a value read from IndexedDB, collecting its strings (and the texts its bytes and Blobs could be). */
async function walk(value: unknown, where: string, out: Array<{ where: string; text: string }>, seen: Set<object>): Promise<void> {
  if (typeof value === 'string') out.push({ where, text: value });
  else if (typeof value === 'number' || typeof value === 'bigint') out.push({ where, text: String(value) });
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (value instanceof ArrayBuffer) {
    for (const text of decodings(new Uint8Array(value))) out.push({ where: `${where} (bytes)`, text });
  } else if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    for (const text of decodings(bytes)) out.push({ where: `${where} (bytes)`, text });
  } else if (value instanceof Blob) {
    for (const text of decodings(new Uint8Array(await value.arrayBuffer()))) out.push({ where: `${where} (blob)`, text });
  } else if (value instanceof Map) {
    for (const [key, item] of value) {
      await walk(key, `${where}.key`, out, seen);
      await walk(item, `${where}[${String(key)}]`, out, seen);
    }
  } else if (value instanceof Set || Array.isArray(value)) {
    let i = 0;
    for (const item of value) await walk(item, `${where}[${i++}]`, out, seen);
  } else if (!(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      out.push({ where: `${where}.${key} (name)`, text: key });
      await walk(item, `${where}.${key}`, out, seen);
    }
  }
}

/** Every key and value of every object store of database `name` (and every store's and index's name), as text. */
export async function dumpDatabase(name: string): Promise<DumpedText[]> {
  const db = await openRaw(name);
  try {
    const stores = [...db.objectStoreNames];
    const raw: Array<{ store: string; keys: IDBValidKey[]; values: unknown[]; indexes: string[] }> = [];
    if (stores.length > 0) {
      const tx = db.transaction(stores, 'readonly');
      for (const store of stores) {
        const os = tx.objectStore(store);
        const [keys, values] = await Promise.all([request(os.getAllKeys()), request(os.getAll())]);
        raw.push({ store, keys, values, indexes: [...os.indexNames] });
      }
    }
    const out: DumpedText[] = [];
    for (const { store, keys, values, indexes } of raw) {
      const found: Array<{ where: string; text: string }> = [{ where: 'store name', text: store }];
      for (const index of indexes) found.push({ where: 'index name', text: index });
      for (let i = 0; i < keys.length; i++) {
        const seen = new Set<object>();
        await walk(keys[i], `key ${i}`, found, seen);
        await walk(values[i], `value ${i}`, found, seen);
      }
      out.push(...found.map((piece) => ({ store, ...piece })));
    }
    return out;
  } finally {
    db.close();
  }
}

/** The places in `dump` holding `word`, or any run of five of its letters, case folded (a front-coded or cut term). */
export function tracesOf(dump: readonly DumpedText[], word: string): DumpedText[] {
  const pieces = new Set<string>();
  for (let i = 0; i + 5 <= word.length; i++) pieces.add(word.slice(i, i + 5).toLowerCase());
  return dump.filter((piece) => {
    const text = piece.text.toLowerCase();
    return [...pieces].some((run) => text.includes(run));
  });
}
