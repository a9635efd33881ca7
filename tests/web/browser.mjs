#!/usr/bin/env node
// The WebAssembly engine in real Chromium (docs/WEB.md): build/web served by a
// plain static server (tools/web/serve.py, python3's http.server), once with
// the cross-origin isolation headers (threads, stern-mt) and once without (one
// thread, stern-st behind stern-worker.js). In each: the info line that says
// which runs, the native engine's answer and node count, the variant's files
// fetched only when it is chosen, `stop` and `isready` during a search, `go
// ponder` and `stop` answered once, a message of two lines, bad lines survived. Prints `ok NAME` or `FAIL NAME: reason`, and the nodes/s of
// one search beside the native engine's (not asserted: a timing). Exits 1 on
// any failure.
//
//   make web && node tests/web/browser.mjs
//
// CHROMIUM (default /usr/bin/chromium) the browser; WEB_BUILD (default build)
// the build folder.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, process.env.WEB_BUILD || 'build');
const STERN = join(BUILD, 'stern');

class TestFailure extends Error {}
const check = (cond, msg) => { if (!cond) throw new TestFailure(msg); };

// The native engine's lines for a script.
function native(lines) {
  return execFileSync(STERN, [], { input: lines.join('\n') + '\n' }).toString().trim().split('\n');
}
const nodesOf = (line) => Number((/ nodes (\d+)/.exec(line) || [])[1]);
const npsOf = (line) => Number((/ nps (\d+)/.exec(line) || [])[1]);
const lastInfo = (lines) => lines.filter((l) => l.startsWith('info depth')).pop() || '';

// A page of build/web/console.html with its engine: send(line), lines(), and
// waitFor(prefix, from, ms): the index of the first line from `from` on that
// starts with prefix.
async function openEngine(browser, url) {
  const page = await browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url + '/console.html');
  const e = {
    page, requests, errors,
    send: (line) => page.evaluate((l) => window.sternSend(l), line),
    lines: () => page.evaluate(() => window.sternLines.slice()),
    count: () => page.evaluate(() => window.sternLines.length),
    async waitFor(prefix, from = 0, ms = 30000) {
      const h = await page.waitForFunction(([p, f]) => {
        const i = window.sternLines.findIndex((l, k) => k >= f && l.startsWith(p));
        return i >= 0 ? i + 1 : 0;
      }, [prefix, from], { timeout: ms, polling: 20 }).catch(() => null);
      check(h, `no line starting "${prefix}" within ${ms} ms`);
      return (await h.jsonValue()) - 1;
    },
  };
  return e;
}

const SEARCH = ['setoption name OwnBook value false', 'position startpos moves j4-j5 g15-g13', 'go depth 9'];

const tests = [
  {
    name: 'says which build runs and answers as natively',
    async run(e, isolated) {
      await e.send('uci');
      const ok = await e.waitFor('uciok');
      const lines = await e.lines();
      check(lines[ok - 1].includes(isolated ? 'with threads' : 'on one thread'), `before uciok: ${lines[ok - 1]}`);
      const want = native(SEARCH);
      const from = await e.count();
      for (const l of SEARCH) await e.send(l);
      const b = await e.waitFor('bestmove', from, 60000);
      const got = (await e.lines()).slice(from, b + 1);
      check(got[got.length - 1] === want[want.length - 1], `${got[got.length - 1]}, natively ${want[want.length - 1]}`);
      check(nodesOf(lastInfo(got)) === nodesOf(lastInfo(want)),
        `nodes ${nodesOf(lastInfo(got))}, natively ${nodesOf(lastInfo(want))}`);
      return `${want[want.length - 1]}, ${nodesOf(lastInfo(want))} nodes`;
    },
  },
  {
    name: 'fetches a variant\'s files when it is chosen',
    async run(e) {
      await e.send('isready');
      await e.waitFor('readyok');
      check(e.requests.includes('/nets/classic-2.nnue'), `classic-2's net not fetched: ${e.requests.join(' ')}`);
      check(!e.requests.some((r) => r.includes('classic-6')), `classic-6 fetched before it was chosen`);
      const from = await e.count();
      await e.send('setoption name Variant value classic-6');
      await e.send('isready');
      await e.waitFor('readyok', from);
      check(e.requests.includes('/book/classic-6.bin'), `classic-6's book not fetched: ${e.requests.join(' ')}`);
      const from2 = await e.count();
      await e.send('go nodes 2000');
      const b = await e.waitFor('bestmove', from2, 30000);
      return (await e.lines())[b];
    },
  },
  {
    name: 'stop and isready during a search, the position kept',
    async run(e) {
      await e.send('setoption name OwnBook value false');
      await e.send('position startpos moves k3-i5');
      let from = await e.count();
      await e.send('go infinite');
      await e.waitFor('info depth 3', from, 30000);
      await e.send('isready');
      await e.waitFor('readyok', from, 2000);
      const t0 = Date.now();
      await e.send('stop');
      const b = await e.waitFor('bestmove', from, 3000);
      const took = Date.now() - t0;
      // the position kept (one thread: the engine was started again)
      const want = native(['position startpos moves k3-i5', 'd']).find((l) => l.startsWith('Fen: '));
      from = b + 1;
      await e.send('d');
      const f = await e.waitFor('Fen: ', from, 10000);
      const got = (await e.lines())[f];
      check(got === want, `after stop: ${got}, natively ${want}`);
      await e.send('go depth 5');
      await e.waitFor('bestmove', f, 30000);
      return `stop answered in ${took} ms`;
    },
  },
  {
    name: 'ponder then stop answers once; a message of several lines',
    async run(e) {
      await e.send('setoption name OwnBook value false');
      let from = await e.count();
      await e.page.evaluate(() => window.sternEngine.postMessage('position startpos moves k3-i5\nd'));
      const f = await e.waitFor('Fen: ', from, 10000);
      const want = native(['position startpos moves k3-i5', 'd']).find((l) => l.startsWith('Fen: '));
      check((await e.lines())[f] === want, `two lines in one message: ${(await e.lines())[f]}, natively ${want}`);
      from = await e.count();
      await e.send('go ponder wtime 60000 btime 60000');
      await new Promise((r) => setTimeout(r, 500));
      await e.send('stop');
      await e.waitFor('bestmove', from, 5000);
      await e.send('isready');
      await e.waitFor('readyok', from, 10000);
      await new Promise((r) => setTimeout(r, 1500));
      const answers = (await e.lines()).slice(from).filter((l) => l.startsWith('bestmove'));
      check(answers.length === 1, `${answers.length} bestmoves for one go ponder and stop: ${answers.join(' | ')}`);
      return answers[0];
    },
  },
  {
    name: 'survives bad lines',
    async run(e) {
      const from = await e.count();
      await e.page.evaluate(() => {
        const w = window.sternEngine;
        w.postMessage('position fen nonsense');
        w.postMessage('position startpos moves z9-z9');
        w.postMessage('setoption name Hash value lots');
        w.postMessage({ not: 'a line' });
        w.postMessage('bad\u0000line');
        w.postMessage('x'.repeat(17 << 20));
        w.postMessage('isready');
      });
      await e.waitFor('readyok', from, 30000);
      const errs = (await e.lines()).slice(from).filter((l) => l.startsWith('info string error'));
      check(errs.length === 6, `${errs.length} errors said for 6 bad lines: ${errs.join(' | ')}`);
      await e.send('go depth 3');
      await e.waitFor('bestmove', from, 30000);
      return `${errs.length} errors said`;
    },
  },
];

async function speed(e, isolated) {
  const script = ['setoption name OwnBook value false', 'setoption name Threads value 1', 'position startpos', 'go depth 11'];
  const want = native(script);
  let from = await e.count();
  for (const l of script) await e.send(l);
  let b = await e.waitFor('bestmove', from, 120000);
  const one = npsOf(lastInfo((await e.lines()).slice(from, b)));
  let four = '';
  if (isolated) {
    from = await e.count();
    for (const l of ['ucinewgame', 'setoption name Threads value 4', 'position startpos', 'go depth 12']) await e.send(l);
    b = await e.waitFor('bestmove', from, 120000);
    four = `, 4 threads ${npsOf(lastInfo((await e.lines()).slice(from, b)))}`;
  }
  return `nodes/s classic-2 depth 11: native ${npsOf(lastInfo(want))}, WebAssembly 1 thread ${one}${four}`;
}

async function main() {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    console.log(`FAIL cannot load playwright-core (npm ci): ${e.message.split('\n')[0]}`);
    process.exit(1);
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  let failed = 0;
  for (const isolated of [true, false]) {
    const s = await serve(join(BUILD, 'web'), isolated);
    const tag = isolated ? 'isolated' : 'not isolated';
    try {
      for (const t of tests) {
        const e = await openEngine(browser, s.url);
        try {
          const said = await t.run(e, isolated);
          check(!e.errors.length, `page errors: ${e.errors.join(' | ')}`);
          console.log(`ok ${t.name} (${tag})${said ? ': ' + said : ''}`);
        } catch (err) {
          failed++;
          console.log(`FAIL ${t.name} (${tag}): ${err.message}`);
          console.log((await e.lines().catch(() => [])).filter((l) => !l.startsWith('option')).slice(-8).join('\n'));
        } finally {
          await e.page.close();
        }
      }
      const e = await openEngine(browser, s.url);
      console.log(`   ${tag}: ${await speed(e, isolated)}`);
      await e.page.close();
    } finally {
      s.proc.kill();
    }
  }
  await browser.close();
  console.log(failed ? `${failed} FAILED` : 'all WebAssembly browser tests passed');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
