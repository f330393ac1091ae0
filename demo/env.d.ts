// Build-time constants the Vite config defines for the demo.

/** True when `npm run dev` runs with ANTHROPIC_API_KEY set, so `/anthropic` is a proxy that adds the key. */
declare const __DEV_PROXY__: boolean;

/** True in a build (`npm run build:demo`), which has the service worker `sw.js`; false on the dev server. */
declare const __OFFLINE_APP__: boolean;
