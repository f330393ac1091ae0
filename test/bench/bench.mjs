// Entry of `npm run bench`. Node 20 cannot run TypeScript, so Vite's module runner loads run.ts (and what it
// imports) from source; `npm run bench -- --quick` passes the flags through.
import { runnerImport } from 'vite';

const { module } = await runnerImport(new URL('./run.ts', import.meta.url).pathname);
try {
  await module.main(process.argv.slice(2));
} catch (error) {
  // A wrong flag: its message says what to write; a stack would only hide it.
  if (error?.name !== 'UsageError') throw error;
  console.error(error.message);
  process.exitCode = 2;
}
