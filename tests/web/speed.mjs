#!/usr/bin/env node
// The WebAssembly engine's speed beside the native engine's (docs/WEB.md):
// `bench` (depth 7, the same 941,233 nodes at one thread in every build) under
// node (stern-mt and stern-st) and in Chromium (console.html served by
// tools/web/serve.py, isolated and not), each run between two native runs of
// the same thread count: its share is of the mean of the two, so that a shared
// machine's drift falls on both sides. Prints each run, then each build's
// median share over the rounds. Not part of make test: a timing.
//
//   make web && node tests/web/speed.mjs [ROUNDS] [THREADS...]
//
// ROUNDS (default 3); THREADS (default 2 4): thread counts above 1 also run in
// the isolated page, against native runs with as many threads (at most the
// machine's cores; beyond them the page's nodes/s is printed alone).
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, process.env.WEB_BUILD || 'build');
const rounds = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 3;
const args = process.argv.slice(3).map(Number);
if (args.some((n) => !(n > 1))) {
  console.error('speed.mjs: THREADS are counts above 1 (one thread always runs)');
  process.exit(2);
}
const threads = args.length ? args : [2, 4];

const nps = (text) => Number((/Nodes\/second: (\d+)/.exec(text) || [])[1]);
const nodes = (text) => Number((/Nodes searched: (\d+)/.exec(text) || [])[1]);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'] });

async function inPage(isolated, n) {
  const s = await serve(join(BUILD, 'web'), isolated);
  const page = await browser.newPage();
  try {
    await page.goto(`${s.url}/console.html`);
    await page.evaluate((t) => { window.sternSend('setoption name Threads value ' + t); window.sternSend('bench'); }, n);
    await page.waitForFunction(() => window.sternLines.some((l) => l.startsWith('Nodes/second')), null, { timeout: 600000 });
    return (await page.evaluate(() => window.sternLines)).join('\n');
  } finally {
    await page.close();
    s.proc.kill();
  }
}

const native = (n) => execFileSync(join(BUILD, 'stern'), ['bench', '7', String(n)]).toString();
const underNode = (st) => execFileSync('node', [join(BUILD, 'web', 'stern-node.js'), ...(st ? ['--st'] : []), 'bench'])
  .toString();

const shares = new Map(); // build -> its share of native in each round, %
const line = (what, text, extra = '') =>
  console.log(`  ${what.padEnd(34)} ${String(nps(text)).padStart(9)} nodes/s (${nodes(text)} nodes)${extra}`);

// Runs build `what` between two native runs with n threads and prints all three.
async function beside(what, n, run) {
  const before = n <= cpus().length ? native(n) : null;
  const text = await run();
  const after = before ? native(n) : null;
  if (!before) {
    line(what, text, ` (${n} threads on ${cpus().length} cores: no native run)`);
    return;
  }
  const ref = (nps(before) + nps(after)) / 2;
  const pct = Math.round((100 * nps(text)) / ref);
  shares.set(what, [...(shares.get(what) || []), pct]);
  line(what, text, ` ${pct}% of native (${nps(before)} before, ${nps(after)} after)`);
}

for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  await beside('node, stern-mt, 1 thread', 1, () => underNode(false));
  await beside('node, stern-st', 1, () => underNode(true));
  await beside('Chromium, isolated, 1 thread', 1, () => inPage(true, 1));
  await beside('Chromium, not isolated (stern-st)', 1, () => inPage(false, 1));
  for (const n of threads) await beside(`Chromium, isolated, ${n} threads`, n, () => inPage(true, n));
}
console.log(`median share of native over ${rounds} rounds`);
for (const [what, v] of shares) {
  const s = [...v].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  console.log(`  ${what.padEnd(34)} ${median}% (${v.join(', ')})`);
}
await browser.close();
