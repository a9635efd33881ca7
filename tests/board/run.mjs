#!/usr/bin/env node
// The table's real-browser tests: each test starts its own build/stern-board
// (-port 0) with the engines it needs, drives tools/board/ in headless Debian
// Chromium through playwright-core, and prints `ok NAME` or `FAIL NAME: reason`.
// Screenshots go to build/board-NAME.png. Exits 1 on any failure.
//
//   make build/stern build/stern-board && node tests/board/run.mjs [NAME...]
//
// BOARD_TC (default 0.05s) is the time control typed into the New game form;
// CHROMIUM (default /usr/bin/chromium) the browser; BOARD_VERBOSE=1 prints
// each step and the server's output of a failed test; BOARD_TIMEOUT_SCALE
// multiplies every test's time limit (a slow machine); BOARD_ROOT serves the
// page from another folder (stern-board -root). BOARD_STATIC=plain or
// =isolated tests the board as a static site (make web; docs/WEB.md): build/web
// behind python3's http.server, or tools/web/serve.py --isolated; the tests
// that need stern-board itself (a test's `needs`) are left out, and
// static.mjs's are added.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BOARD_BIN, STERN_BIN, BUILD, STATIC, TestFailure, startServer, stopServer } from './lib.mjs';
import playTests from './play.mjs';
import analysisTests from './analysis.mjs';
import pgnTests from './pgn.mjs';
import robustTests from './robust.mjs';
import positionTests from './position.mjs';
import hopTests from './hops.mjs';
import tabTests from './tabs.mjs';
import staticTests from './static.mjs';

const ALL = [...playTests, ...analysisTests, ...pgnTests, ...robustTests, ...positionTests, ...hopTests, ...tabTests,
  ...staticTests].filter((t) => (STATIC ? !t.needs : !t.staticOnly));
const verbose = !!process.env.BOARD_VERBOSE;
const scale = Number(process.env.BOARD_TIMEOUT_SCALE) > 0 ? Number(process.env.BOARD_TIMEOUT_SCALE) : 1;

function pickTests(argv) {
  if (!argv.length) return ALL;
  const unknown = argv.filter((n) => !ALL.some((t) => t.name === n));
  if (unknown.length) {
    console.error(`unknown test(s): ${unknown.join(' ')}; the tests: ${ALL.map((t) => t.name).join(' ')}`);
    process.exit(2);
  }
  return ALL.filter((t) => argv.includes(t.name));
}

async function runOne(browser, test) {
  const t = {
    name: test.name,
    browser,
    contexts: [],
    servers: [],
    mainPage: null,
    stepText: 'start',
    steps: [],
    step(s) { this.stepText = s; this.steps.push(s); if (verbose) console.log(`  .. ${test.name}: ${s}`); },
    dead: false,         // set once the test is over (timed out): start nothing more
    async server(engines, opts) {
      if (this.dead) throw new TestFailure('the test is over');
      this.step(`start stern-board with ${engines.map((e) => e.name || e.cmd).join(', ')}`);
      const s = await startServer(engines, opts);
      if (this.dead) {
        await stopServer(s);
        throw new TestFailure('the test is over');
      }
      this.servers.push(s);
      return s;
    },
    screenshotTaken: false,
  };
  const started = Date.now();
  let timer;
  const limit = Math.round(test.timeout * scale);
  const timeout = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new TestFailure(`timed out after ${limit / 1000} s`)), limit);
  });
  let error = null;
  try {
    await Promise.race([test.run(t), timeout]);
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(timer);
    t.dead = true;
  }
  // the screenshot of the end (or of the failure)
  if (t.mainPage) {
    try {
      await t.mainPage.screenshot({ path: join(BUILD, `board-${STATIC ? STATIC + '-' : ''}${test.name}.png`), fullPage: true, timeout: 5000 });
    } catch { /* the page may be gone */ }
  }
  const jsErrors = t.mainPage ? t.mainPage.jsErrors : [];
  for (const c of t.contexts) await c.close().catch(() => {});
  for (const s of t.servers) await stopServer(s).catch(() => {});
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (!error && test.noJsErrors !== false && jsErrors.length) {
    error = new TestFailure(`the page reported ${jsErrors.length} JS error(s): ${jsErrors.slice(0, 3).join(' | ')}`);
  }
  if (error) {
    let reason = error instanceof TestFailure ? error.message : `${error.name}: ${error.message.split('\n')[0]}`;
    reason += ` [step: ${t.stepText}]`;
    if (jsErrors.length && !reason.includes('JS error')) reason += ` [page JS errors: ${jsErrors.slice(0, 3).join(' | ')}]`;
    console.log(`FAIL ${test.name}: ${reason}`);
    if (verbose) {
      if (!(error instanceof TestFailure)) console.log(error.stack);
      for (const s of t.servers) console.log(`  server ${s.command}:\n${s.output().replace(/^/gm, '    ')}`);
    }
    return false;
  }
  console.log(`ok ${test.name}`);
  if (verbose) console.log(`  (${secs} s)`);
  return true;
}

async function main() {
  const tests = pickTests(process.argv.slice(2));
  const need = STATIC ? [[join(BUILD, 'web', 'stern-table.wasm'), 'make web'], [STERN_BIN, 'make build/stern']]
    : [[BOARD_BIN, 'make build/stern-board'], [STERN_BIN, 'make build/stern']];
  if (STATIC && STATIC !== 'plain' && STATIC !== 'isolated') {
    console.error(`BOARD_STATIC=${STATIC}: plain or isolated`);
    process.exit(2);
  }
  for (const [bin, what] of need) {
    if (!existsSync(bin)) {
      for (const t of tests) console.log(`FAIL ${t.name}: ${bin} is missing (run ${what})`);
      console.log(`0 passed, ${tests.length} failed`);
      process.exit(1);
    }
  }
  mkdirSync(BUILD, { recursive: true });
  const failAll = (why) => {
    for (const t of tests) console.log(`FAIL ${t.name}: ${why}`);
    console.log(`0 passed, ${tests.length} failed`);
    process.exit(1);
  };
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    failAll(`cannot load playwright-core (run npm ci in ${join(BUILD, '..')}): ${e.message.split('\n')[0]}`);
  }
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  let browser;
  try {
    // no sandbox as root; no background connections, which a closed network refuses
    const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'];
    browser = await chromium.launch({ executablePath, args, timeout: 30000 });
  } catch (e) {
    failAll(`cannot launch ${executablePath}: ${e.message.split('\n')[0]}`);
  }
  let passed = 0, failed = 0;
  try {
    for (const test of tests) {
      if (await runOne(browser, test)) passed++; else failed++;
    }
  } finally {
    await browser.close().catch(() => {});
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
