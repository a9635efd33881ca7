// Setting up a position by hand: the edit mode of the board (#edit-position),
// what a click and Enter put on a hole, the FEN the page builds, a position
// the server refuses.
import {
  check, sleep, sternEngine, openTable, getState, waitState, newGameByForm, checkBoardMatches,
  domBoard, recordSends, sentMessages, messages, waitMessage, stateCore, summarize,
} from './lib.mjs';

const holeSel = (h) => `#board g.hole[data-hole="${h}"]`;
const pieceOn = (page, h) => page.$eval(holeSel(h), (g) => g.dataset.piece || null);
const editing = (page) => page.$eval('svg#board', (b) => b.classList.contains('editing'));
const toolsShown = (page) => page.$eval('#edit-tools', (e) => !e.hidden && e.getClientRects().length > 0);

// The classic-2 position clicked below, checked with build/stern (Variant
// classic-2, `position fen …`: black's legal moves i5-h6 i5-i6 i5-j5 k3-m1
// m3-m1 l2-m1 m2-m1). White: its target but h14, and h13; black: its target
// but m1, and i5. The seats' field and the round stay those of the start.
const WHITE = ['e17', 'e16', 'f16', 'e15', 'f15', 'g15', 'e14', 'f14', 'g14', 'h13'];
const BLACK = ['j4', 'k4', 'l4', 'm4', 'k3', 'l3', 'm3', 'l2', 'm2', 'i5'];
const SET_FEN = 'w/ww/www/www1/7w5/12/11/10/9/10/11/12/4b8/bbbb/bbb/bb/1 b w0,b0 1';
// The same without black (build/stern: `fen: seat 'b' has 0 marbles, expected 10`).
const BAD_FEN = 'w/ww/www/www1/7w5/12/11/10/9/10/11/12/13/4/3/2/1 b w0,b0 1';

// Clicks hole h `times` times, checking what it shows after each click.
async function clickCycle(t, page, h, want) {
  for (const p of want) {
    t.step(`click ${h} (expect ${p || 'empty'})`);
    await page.click(holeSel(h));
    const got = await pieceOn(page, h);
    check(got === p, `after clicking ${h} in edit mode it shows ${got || 'nothing'}, expected ${p || 'nothing'} (the cycle empty, w, b, empty in classic-2)`);
  }
}

async function checkDrawn(page, want, where) {
  const dom = await domBoard(page);
  const diffs = [];
  for (const h of new Set([...Object.keys(dom), ...Object.keys(want)])) {
    if ((dom[h] || null) !== (want[h] || null)) diffs.push(`${h}: page ${dom[h] || '-'} want ${want[h] || '-'}`);
  }
  check(!diffs.length, `${where}: the drawn board differs (${diffs.length} holes: ${diffs.slice(0, 6).join(', ')})`);
}

const editPosition = {
  name: 'edit-position',
  timeout: 60000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const s0 = await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    check(s0.stm === 'w' && s0.fen.endsWith(' w w0,b0 1'), `the start: ${s0.fen}`);
    await recordSends(page);
    check(!(await editing(page)) && !(await toolsShown(page)), 'svg#board is .editing or #edit-tools shown before #edit-position was clicked');

    t.step('click #edit-position');
    await page.click('button#edit-position');
    check(await editing(page), 'svg#board has no class editing after clicking #edit-position');
    check(await toolsShown(page), '#edit-tools is not shown in edit mode');
    const opts = await page.$$eval('select#edit-stm option', (os) => os.map((o) => o.value));
    check(JSON.stringify(opts) === '["w","b"]', `select#edit-stm offers ${JSON.stringify(opts)}, expected the seats w, b`);
    check((await page.inputValue('select#edit-stm')) === 'w', 'select#edit-stm does not start on the seat to move (w)');
    await checkDrawn(page, s0.board, 'edit mode from the start');
    check((await page.$$('#board g.hole.movable')).length === 0, 'holes are .movable in edit mode');
    await clickCycle(t, page, 'i9', ['w', 'b', null]);
    await clickCycle(t, page, 'j4', ['b', null, 'w']); // a white marble: b, then empty, then w again
    t.step('click #edit-cancel');
    await page.click('button#edit-cancel');
    check(!(await editing(page)) && !(await toolsShown(page)), 'still editing after #edit-cancel');
    await checkBoardMatches(page, await getState(page), 'after #edit-cancel');
    t.step('#edit-position twice: on, then off');
    await page.click('button#edit-position');
    await page.click(holeSel('i9'));
    check((await pieceOn(page, 'i9')) === 'w', 'a click on i9 in edit mode (the second time) did not put w there');
    await page.click('button#edit-position');
    check(!(await editing(page)), 'the second click on #edit-position did not leave edit mode');
    await checkBoardMatches(page, await getState(page), 'after leaving edit mode by #edit-position');
    await sleep(300);
    check(!(await sentMessages(page)).length, `the page sent ${JSON.stringify(await sentMessages(page))} while editing and cancelling`);
    check(stateCore(await getState(page)) === stateCore(s0), 'the state changed by editing and cancelling');

    t.step('edit again, #edit-clear');
    await page.click('button#edit-position');
    await page.click('button#edit-clear');
    check(Object.keys(await domBoard(page)).length === 0, `holes still show pieces after #edit-clear: ${JSON.stringify(await domBoard(page))}`);

    t.step('the keyboard: Enter on the cursor cycles its hole');
    await page.focus('svg#board');
    await page.keyboard.press('ArrowUp');
    const cur = await page.$$eval('#board g.hole.cursor', (gs) => gs.map((g) => g.dataset.hole));
    check(cur.length === 1, `${cur.length} holes have .cursor after focusing svg#board and ArrowUp`);
    for (const p of ['w', 'b', null]) {
      await page.keyboard.press('Enter');
      const got = await pieceOn(page, cur[0]);
      check(got === p, `Enter on the cursor (${cur[0]}) in edit mode made it ${got || 'empty'}, expected ${p || 'empty'}`);
    }

    const want = {};
    for (const h of WHITE) {
      await clickCycle(t, page, h, ['w']);
      want[h] = 'w';
    }
    for (const h of BLACK) {
      await clickCycle(t, page, h, ['w', 'b']);
      want[h] = 'b';
    }
    await checkDrawn(page, want, 'after clicking the position');
    t.step('select#edit-stm b, click #edit-done');
    await page.selectOption('select#edit-stm', 'b');
    await page.click('button#edit-done');
    let s = await waitState(page, (s, fen) => s.fen === fen, SET_FEN, `the position set up by hand (${SET_FEN})`);
    const sent = (await sentMessages(page)).filter((m) => m.type === 'fen');
    check(sent.length === 1 && sent[0].fen === SET_FEN,
      `#edit-done sent ${JSON.stringify(sent)}, expected one {"type":"fen","fen":"${SET_FEN}"}`);
    check(s.mode === 'analysis', `mode ${s.mode} after setting up a position, expected analysis`);
    check(s.variant === 'classic-2' && s.stm === 'b' && s.ply === 0, `after the set-up: ${summarize(s)}`);
    check(JSON.stringify(Object.entries(s.board).sort()) === JSON.stringify(Object.entries(want).sort()),
      `state.board ${JSON.stringify(s.board)} is not the clicked position ${JSON.stringify(want)}`);
    check(s.legal.some((m) => m.text === 'i5-i6'), `black's legal moves lack i5-i6: ${s.legal.map((m) => m.text).join(' ')}`);
    await waitState(page, () => !document.querySelector('svg#board').classList.contains('editing'), null,
      'the page to leave edit mode once the position is set up');
    check(!(await toolsShown(page)), '#edit-tools still shown after the position was set up');
    await checkBoardMatches(page, s, 'after the set-up');

    t.step('a position the server refuses: take every black marble off');
    await page.click('button#edit-position');
    await checkDrawn(page, want, 'edit mode from the set-up position');
    check((await page.inputValue('select#edit-stm')) === 'b', 'select#edit-stm does not start on the seat to move (b)');
    for (const h of BLACK) await clickCycle(t, page, h, [null]);
    const before = stateCore(s);
    const errors = (await messages(page, 'error')).length;
    t.step('click #edit-done (no black marble)');
    await page.click('button#edit-done');
    const err = await waitMessage(page, 'error', errors, 'Done on a board without black');
    const sent2 = (await sentMessages(page)).filter((m) => m.type === 'fen');
    check(sent2.length === 2 && sent2[1].fen === BAD_FEN, `the second #edit-done sent ${JSON.stringify(sent2[1])}, expected the fen ${BAD_FEN}`);
    check(/marble|seat/i.test(err[0]), `the error does not say what is wrong: ${JSON.stringify(err)}`);
    await sleep(500);
    s = await getState(page);
    check(stateCore(s) === before, `the state changed although the server refused the position: ${summarize(s)}`);
    check(await editing(page), 'the page left edit mode although the server refused the position');
    check((await pieceOn(page, 'j4')) === null && (await pieceOn(page, 'e17')) === 'w',
      'the refused position is no longer the one being edited');
    t.step('click #edit-cancel');
    await page.click('button#edit-cancel');
    check(!(await editing(page)), 'still editing after #edit-cancel');
    await checkBoardMatches(page, s, 'after cancelling the refused position');
  },
};

export default [editPosition];
