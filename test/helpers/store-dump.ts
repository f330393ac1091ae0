// Every record of every object store of a database, as one JSON text: read through a connection of its own, so that
// a test can prove a write stored nothing (the dump before equals the dump during or after) without a view.

/** Each store's keys and values, in key order, on a connection opened and closed for it. */
export async function dumpStores(dbName: string): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error(`cannot open ${dbName}`));
  });
  try {
    const names = [...db.objectStoreNames].sort();
    const tx = db.transaction(names, 'readonly');
    const read = (name: string) =>
      new Promise<[string, unknown[], unknown[]]>((resolve, reject) => {
        const store = tx.objectStore(name);
        const keys = store.getAllKeys();
        const values = store.getAll();
        values.onsuccess = () => resolve([name, keys.result, values.result]);
        values.onerror = () => reject(values.error ?? new Error(`cannot read ${name}`));
      });
    return JSON.stringify(await Promise.all(names.map(read)));
  } finally {
    db.close();
  }
}
