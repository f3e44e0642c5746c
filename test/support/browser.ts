// Headless Chromium for the browser suites (Debian's /usr/bin/chromium,
// driven by playwright-core; no browser is downloaded). Every page opened
// through openPage() records console errors, uncaught page errors and failed
// requests, and may only talk to this machine: a request to any other host
// is aborted and recorded, which is how the suites prove the site works
// offline (no script, font or style from elsewhere).
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Waits until the page stops moving: loaded, and the URL unchanged for `pauseMs` (site.js may move on to a list file). */
export async function settle(page: Page, pauseMs: number): Promise<void> {
  let last = '';
  for (let i = 0; i < 20 && page.url() !== last; i++) {
    last = page.url();
    await page.waitForLoadState('load');
    await page.waitForTimeout(pauseMs);
  }
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console messages of type "error", as "console: <text> (<url>)". */
  consoleErrors: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** Requests that failed at the network level or were answered with status >= 400 (blocked ones included). */
  failedRequests: string[];
  /**
   * Requests the browser itself cancelled (net::ERR_ABORTED): a navigation
   * (a click, the query script moving on) stops the loads of the page it
   * leaves. Not a failure; kept for information.
   */
  aborted: string[];
  /** Requests to a host other than 127.0.0.1/localhost, aborted. */
  blocked: string[];
  /** Everything above in one list: empty when the page behaved. */
  problems(): string[];
  close(): Promise<void>;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLocal(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
    return (u.protocol === 'http:' || u.protocol === 'https:') && LOCAL_HOSTS.has(u.hostname);
  } catch {
    return false;
  }
}

/**
 * A fresh context and page that collects what went wrong. Options go to
 * browser.newContext() (e.g. { javaScriptEnabled: false }).
 */
export async function openPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(15_000); // fail well within the test's own timeout
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const failedRequests: string[] = [];
  const blocked: string[] = [];
  const aborted: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url)) {
      await route.continue();
      return;
    }
    blocked.push(`${route.request().resourceType()} ${url}`);
    await route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    consoleErrors.push(`console: ${message.text()}${where ? ` (${where})` : ''}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const why = request.failure()?.errorText ?? 'unknown';
    (why === 'net::ERR_ABORTED' ? aborted : failedRequests).push(`failed: ${request.method()} ${request.url()} (${why})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return {
    page,
    context,
    consoleErrors,
    pageErrors,
    failedRequests,
    aborted,
    blocked,
    problems: () => [...consoleErrors, ...pageErrors, ...failedRequests, ...blocked.map((b) => `blocked off-host request: ${b}`)],
    close: () => context.close(),
  };
}

export type Impact = 'critical' | 'serious' | 'moderate' | 'minor' | 'none';
export const IMPACTS: Impact[] = ['critical', 'serious', 'moderate', 'minor', 'none'];

export interface Violation {
  id: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  /** How many elements fail the rule. */
  count: number;
  /** CSS selectors of the first few failing elements. */
  targets: string[];
  /** axe's summary of what to fix, for the first failing element. */
  summary: string;
}

export interface AxeReport {
  url: string;
  violations: Violation[];
  byImpact: Record<Impact, Violation[]>;
  /** Number of violations (rules) of impact serious or critical. */
  severe: number;
}

/** Runs axe-core (the installed devDependency, injected into the page) on the page as it is now. */
export async function runAxe(page: Page): Promise<AxeReport> {
  // Evaluated through the DevTools protocol, which the pages' Content-Security-Policy
  // does not govern (a <script> tag with axe's source would be blocked by it).
  await page.evaluate(axe.source);
  const raw = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact?: string | null; help: string; helpUrl: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } };
    const results = await w.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'none',
      help: v.help,
      helpUrl: v.helpUrl,
      count: v.nodes.length,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
      summary: v.nodes[0]?.failureSummary ?? '',
    }));
  });
  const violations = raw.map((v) => ({ ...v, impact: (IMPACTS.includes(v.impact as Impact) ? v.impact : 'none') as Impact }));
  const byImpact = Object.fromEntries(IMPACTS.map((i) => [i, violations.filter((v) => v.impact === i)])) as Record<Impact, Violation[]>;
  return { url: page.url(), violations, byImpact, severe: byImpact.critical.length + byImpact.serious.length };
}

/** One line per violation: "impact id ×count: help [targets]". */
export function formatAxe(label: string, report: AxeReport): string {
  if (report.violations.length === 0) return `axe ${label} (${report.url}): no violations`;
  const lines = IMPACTS.flatMap((i) => report.byImpact[i].map((v) => `  ${v.impact} ${v.id} ×${v.count}: ${v.help} [${v.targets.join(' | ')}]`));
  return `axe ${label} (${report.url}): ${report.violations.length} violation(s)\n${lines.join('\n')}`;
}
