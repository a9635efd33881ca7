// Analysis mode: lines, PV drawings, MultiPV, the evaluation graph, the FEN box.
import { join } from 'node:path';
import {
  BUILD, check, sleep, sternEngine, openTable, getState, getHello, waitState, bestMove, clickMove,
  waitHumanTurn, newGameByForm, checkBoardMatches, checkMoveList, messages, waitMessage, stateCore, fail,
} from './lib.mjs';

// The analysis lines as shown: [{multipv, score, pv}].
const shownLines = (page) => page.$$eval('ol#analysis-lines li.line', (lis) => lis.map((li) => ({
  multipv: li.dataset.multipv,
  score: (li.querySelector('.score') || { textContent: '' }).textContent.trim(),
  pv: (li.querySelector('.pv') || { textContent: '' }).textContent.trim(),
})));

async function waitLines(page, n, what, timeout = 15000) {
  try {
    await page.waitForFunction((n) => {
      const lis = [...document.querySelectorAll('ol#analysis-lines li.line')];
      return lis.length === n && lis.every((li) => li.querySelector('.pv') && li.querySelector('.pv').textContent.trim()
        && li.querySelector('.score') && li.querySelector('.score').textContent.trim());
    }, n, { timeout, polling: 100 });
  } catch {
    fail(`timed out after ${timeout} ms waiting for ${what}: ${n} li.line with a .score and a non-empty .pv; shown ${JSON.stringify(await shownLines(page))}, last analysis message ${JSON.stringify(await page.evaluate(() => window.stern.analysis)).slice(0, 300)}`);
  }
  return shownLines(page);
}

async function toggleAnalysis(t, page, on) {
  t.step(`${on ? 'check' : 'uncheck'} input#analysis-toggle`);
  if (on) await page.check('input#analysis-toggle', { timeout: 5000 });
  else await page.uncheck('input#analysis-toggle', { timeout: 5000 });
  return waitState(page, (s, m) => s.mode === m, on ? 'analysis' : 'play', `state.mode ${on ? 'analysis' : 'play'}`);
}

async function setMultiPV(t, page, n) {
  t.step(`set input#multipv to ${n}`);
  await page.fill('input#multipv', String(n));
  await page.press('input#multipv', 'Enter');
  await page.dispatchEvent('input#multipv', 'change');
}

const analysis = {
  name: 'analysis-mode',
  timeout: 90000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const hello = await getHello(page);
    await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    for (let i = 0; i < 3; i++) {
      const s = await waitHumanTurn(page);
      await clickMove(t, page, bestMove(hello, s));
    }
    let s = await waitState(page, (s) => s.ply === 6 && s.stm === 'w', null, 'ply 6, White to move');
    await toggleAnalysis(t, page, true);
    t.step('wait for an analysis line with a PV');
    let lines = await waitLines(page, 1, 'the first analysis line');
    s = await getState(page);
    const legal = new Set(s.legal.map((m) => m.text));
    const first = lines[0].pv.split(/\s+/)[0];
    check(legal.has(first) || [...legal].some((m) => first.includes(m)),
      `the PV shown ${JSON.stringify(lines[0].pv)} does not start with a legal move of the shown position`);
    t.step('wait for path.pv-line on svg#board');
    await page.waitForSelector('svg#board path.pv-line', { state: 'attached', timeout: 10000 })
      .catch(() => fail('no path.pv-line inside svg#board while analysing'));
    const a = await page.evaluate(() => window.stern.analysis);
    check(a && a.ply === s.shown, `window.stern.analysis.ply is ${a && a.ply}, shown ${s.shown}`);

    await setMultiPV(t, page, 3);
    lines = await waitLines(page, 3, 'three lines after MultiPV 3');
    check(JSON.stringify(lines.map((l) => l.multipv)) === '["1","2","3"]',
      `li.line data-multipv are ${JSON.stringify(lines.map((l) => l.multipv))}`);
    const firsts = lines.map((l) => l.pv.split(/\s+/)[0]);
    check(new Set(firsts).size === 3, `the three lines start with the same move: ${firsts.join(', ')}`);
    const npaths = await page.$$eval('svg#board path.pv-line', (p) => p.length);
    check(npaths >= 1, 'no path.pv-line with MultiPV 3');
    const polys = await page.$$eval('svg#eval-graph polyline[data-seat]', (p) => p.map((x) => x.dataset.seat));
    check(polys.includes('w') && polys.includes('b'), `svg#eval-graph polylines for ${JSON.stringify(polys)}, expected w and b`);
    t.step('screenshot build/board-analysis.png');
    await page.screenshot({ path: join(BUILD, 'board-analysis.png'), fullPage: true });

    // any seat may be moved in analysis; the lines follow the new position
    const m = bestMove(hello, s);
    await clickMove(t, page, m);
    s = await waitState(page, (s) => s.ply === 7 && s.shown === 7 && s.mode === 'analysis', null, 'ply 7 in analysis');
    check(s.stm === 'b' && s.legal.length > 0, `in analysis after White's move: stm ${s.stm}, ${s.legal.length} legal (any seat may be moved)`);
    await page.waitForFunction(() => window.stern.analysis && window.stern.analysis.ply === 7, null, { timeout: 10000 })
      .catch(() => fail('no analysis of ply 7 after a move in analysis mode'));
    await waitLines(page, 3, 'three lines of the new position');
    await checkMoveList(page, s, 'in analysis');
    await checkBoardMatches(page, s, 'in analysis');
    await page.screenshot({ path: join(BUILD, 'board-analysis.png'), fullPage: true });

    await toggleAnalysis(t, page, false);
    await sleep(500);
    t.step('analysis off: lines cleared or stale, the engine (Black) plays on');
    s = await waitState(page, (s) => s.ply === 8 && s.stm === 'w' && s.legal.length > 0, null,
      'the engine to move Black after analysis is switched off', 15000);
  },
};

// The FEN box: a good FEN sets up the position, a bad one is refused.
const RACE_FEN = 'w/ww/www/ww2/7w5/12/11/10/9/4w5/11/12/7b5/bb1b/bbb/bb/b b w40,b39 40';
const fenBox = {
  name: 'fen-box',
  timeout: 40000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    await newGameByForm(t, page, 'classic-2', ['human', 'human']);
    await toggleAnalysis(t, page, true);
    t.step('paste a FEN and click #fen-set');
    await page.fill('input#fen-input', RACE_FEN);
    await page.click('button#fen-set');
    let s = await waitState(page, (s, f) => s.fen === f, RACE_FEN, 'the FEN to be set up');
    check(s.stm === 'b' && s.variant === 'classic-2', `stm ${s.stm}, variant ${s.variant}`);
    await checkBoardMatches(page, s, 'after #fen-set');
    const before = stateCore(s);
    const nerr = (await messages(page, 'error')).length;
    t.step('paste a bad FEN and click #fen-set');
    await page.fill('input#fen-input', 'w/ww/www/ww2/7w5/12/11/10/9/4w5/11/12/7b5/bb1b/bbb/bb/bb b w40,b39 40');
    await page.click('button#fen-set');
    const errs = await waitMessage(page, 'error', nerr, 'a bad FEN (11 black marbles)');
    check(errs.some((e) => /fen/i.test(e)), `the error does not mention the FEN: ${JSON.stringify(errs)}`);
    await sleep(500);
    s = await getState(page);
    check(stateCore(s) === before, 'the table changed after a bad FEN');
    await checkBoardMatches(page, s, 'after a bad FEN');
  },
};

export default [analysis, fenBox];
