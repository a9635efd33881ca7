#!/usr/bin/env node
// The WebAssembly engine's speed beside the native engine's (docs/WEB.md):
// `bench` (depth 7, the same 941,233 nodes at one thread in every build) run
// natively, under node (stern-mt and stern-st) and in Chromium (console.html
// served by tools/web/serve.py, isolated and not), the builds alternating in
// each round so that a shared machine's drift falls on all of them. Prints
// nodes/s and each WebAssembly build's share of the native nodes/s of its
// round, then each build's median share over the rounds. Not part of make
// test: a timing.
//
//   make web && node tests/web/speed.mjs [ROUNDS] [THREADS...]
//
// ROUNDS (default 3); THREADS (default 2 4): thread counts also run in the
// isolated page (and natively, up to the machine's cores).
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, process.env.WEB_BUILD || 'build');
const rounds = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 3;
const threads = process.argv.slice(3).map(Number).filter((n) => n > 1);
if (!threads.length) threads.push(2, 4);

const nps = (text) => Number((/Nodes\/second: (\d+)/.exec(text) || [])[1]);
const nodes = (text) => Number((/Nodes searched: (\d+)/.exec(text) || [])[1]);

function serve(isolated) {
  return new Promise((res, rej) => {
    const p = spawn('python3', [join(ROOT, 'tools/web/serve.py'), '--port', '0', ...(isolated ? ['--isolated'] : []),
      join(BUILD, 'web')], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: p.stdout }).once('line', (l) => res({ p, port: Number(l.trim()) }));
    p.once('exit', (c) => rej(new Error(`serve.py exited ${c}`)));
  });
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'] });

async function inPage(isolated, n) {
  const s = await serve(isolated);
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${s.port}/console.html`);
    await page.evaluate((t) => { window.sternSend('setoption name Threads value ' + t); window.sternSend('bench'); }, n);
    await page.waitForFunction(() => window.sternLines.some((l) => l.startsWith('Nodes/second')), null, { timeout: 600000 });
    return (await page.evaluate(() => window.sternLines)).join('\n');
  } finally {
    await page.close();
    s.p.kill();
  }
}

const native = (n) => execFileSync(join(BUILD, 'stern'), ['bench', '7', String(n)]).toString();
const underNode = (st) => execFileSync('node', [join(BUILD, 'web', 'stern-node.js'), ...(st ? ['--st'] : []), 'bench'])
  .toString();

const shares = new Map(); // build -> its share of native in each round, %
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const base = native(1);
  const row = (what, text, ref) => {
    const pct = ref ? Math.round((100 * nps(text)) / nps(ref)) : null;
    if (pct !== null) shares.set(what, [...(shares.get(what) || []), pct]);
    const share = ref ? ` ${pct}% of native` : '';
    console.log(`  ${what.padEnd(32)} ${String(nps(text)).padStart(9)} nodes/s (${nodes(text)} nodes)${share}`);
  };
  row('native, 1 thread', base);
  row('node, stern-mt, 1 thread', underNode(false), base);
  row('node, stern-st', underNode(true), base);
  row('Chromium, isolated, 1 thread', await inPage(true, 1), base);
  row('Chromium, not isolated (stern-st)', await inPage(false, 1), base);
  for (const n of threads) {
    const nat = n <= cpus().length ? native(n) : null;
    if (nat) row(`native, ${n} threads`, nat);
    row(`Chromium, isolated, ${n} threads`, await inPage(true, n), nat);
  }
}
console.log(`median share of native over ${rounds} rounds`);
for (const [what, v] of shares) {
  const s = [...v].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  console.log(`  ${what.padEnd(32)} ${median}% (${v.join(', ')})`);
}
await browser.close();
