// A reporter beside Vitest's default one: after the run, one line per project (node, chromium, firefox, webkit,
// e2e) with its counts and the wall time from its first file's start to its last file's end, then the name of
// every skipped test, which says why.

import type { Reporter, TestModule, TestProject, Vitest } from 'vitest/node';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  pending: number;
  /** Files that failed outside any test (an import, a hook). */
  brokenFiles: number;
  files: number;
  skips: string[];
}

/** More skipped names than this (a `-t` filter skips the rest) are summed up, not listed. */
const MAX_LISTED = 20;

export default class EngineCounts implements Reporter {
  #vitest: Vitest | undefined;
  /** Per project: when its first file started and its last one ended. */
  readonly #spans = new Map<string, { start: number; end: number }>();

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
    this.#spans.clear();
  }

  onTestModuleStart(module: TestModule): void {
    const name = projectName(module.project);
    const now = Date.now();
    const span = this.#spans.get(name);
    if (!span) this.#spans.set(name, { start: now, end: now });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.#spans.get(projectName(module.project));
    if (span) span.end = Date.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const projects = new Map<string, Counts>();
    for (const module of testModules) {
      const name = projectName(module.project);
      let counts = projects.get(name);
      if (!counts) {
        counts = { passed: 0, failed: 0, skipped: 0, pending: 0, brokenFiles: 0, files: 0, skips: [] };
        projects.set(name, counts);
      }
      counts.files++;
      if (module.errors().length > 0) counts.brokenFiles++;
      for (const test of module.children.allTests()) {
        const result = test.result();
        counts[result.state]++;
        if (result.state === 'skipped') {
          counts.skips.push(result.note ? `${test.fullName} (${result.note})` : test.fullName);
        }
      }
    }
    if (projects.size === 0) return;
    // In the config's order.
    const order = (this.#vitest?.projects ?? []).map(projectName);
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    const sorted = [...projects].sort(([a], [b]) => rank(a) - rank(b));
    const lines = ['', 'Tests per project:'];
    for (const [name, c] of sorted) {
      const parts = [`${c.passed} passed`];
      if (c.failed > 0) parts.push(`${c.failed} failed`);
      if (c.skipped > 0) parts.push(`${c.skipped} skipped`);
      if (c.pending > 0) parts.push(`${c.pending} not run`);
      if (c.brokenFiles > 0) parts.push(`${c.brokenFiles} files with errors`);
      const span = this.#spans.get(name);
      const time = span ? `, ${Math.round((span.end - span.start) / 1000)} s` : '';
      lines.push(`  ${name}: ${parts.join(', ')} (${c.files} files${time})`);
      const listed = c.skips.slice(0, MAX_LISTED);
      for (const skip of listed) lines.push(`    skipped: ${skip}`);
      if (c.skips.length > listed.length) lines.push(`    … and ${c.skips.length - listed.length} more skipped`);
    }
    const log = this.#vitest?.logger;
    for (const line of lines) {
      if (log) log.log(line);
      else console.log(line);
    }
  }
}

/** `chromium`, not Vitest's `chromium (chromium)` for a browser project's one instance. */
function projectName(project: TestProject): string {
  const name = project.name || 'default';
  const { browser } = project.config;
  const suffix = browser.enabled ? ` (${browser.name})` : '';
  return suffix && name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
}
