// Moves entered hop by hop, where one click on the end is ambiguous: Masters
// swaps that differ in where the displaced marble goes, capture chains that
// differ in the pieces they take.
import {
  check, sternEngine, openTable, getState, waitState, clickMove, checkBoardMatches, checkMoveList,
  litHoles, holeClasses, summarize,
} from './lib.mjs';

const holeSel = (h) => `#board g.hole[data-hole="${h}"]`;
const pieceOn = (page, h) => page.$eval(holeSel(h), (g) => g.dataset.piece || null);

// Sets up fen of variant through the FEN box; resolves with the state at ply 0.
async function setFen(t, page, variant, fen) {
  t.step(`FEN box: ${variant} ${fen}`);
  await page.fill('input#fen-input', fen);
  await page.selectOption('select#fen-variant', variant);
  await page.click('button#fen-set');
  const s = await waitState(page, (s, w) => s.variant === w.variant && s.fen === w.fen && s.ply === 0,
    { variant, fen }, `the ${variant} position ${fen}`);
  check(s.mode === 'analysis', `mode ${s.mode} after setting a FEN, expected analysis`);
  await checkBoardMatches(page, s, `from the FEN ${fen}`);
  return s;
}

const legalMove = (s, text) => {
  const m = s.legal.find((x) => x.text === text);
  check(m, `state.legal lacks ${text}: ${s.legal.map((x) => x.text).join(' ')}`);
  return m;
};

// The piece on each hole after a move, as the state says and as drawn.
async function checkPieces(page, s, want, where) {
  for (const [h, p] of Object.entries(want)) {
    check((s.board[h] || null) === p, `${where}: state.board[${h}] is ${s.board[h] || 'empty'}, expected ${p || 'empty'}`);
    const drawn = await pieceOn(page, h);
    check(drawn === p, `${where}: hole ${h} is drawn with ${drawn || 'nothing'}, expected ${p || 'nothing'}`);
  }
  await checkBoardMatches(page, s, where);
}

// Masters-2, black at 30 moves with a marble left on h14 in white's target
// (checked with build/stern, Variant masters-2: legalmoves lists h13-h14,
// h12-h14 and h12-j12-h14; after them the FEN's rows 14-12 read
// ww1w/7bb4/6wb4, ww1w/7wb4/6bb4 and ww1w/7wb4/7bb3). From h12 two swaps end
// on h14: the jump over h13 (black goes to h12) and the chain over i12 and
// i13 (black goes to j12). From h13 the step is the only move onto h14.
const MASTERS_FEN = 'w/ww/www/ww1b/7wb4/6wb4/11/10/9/10/11/12/13/bb1b/bbb/b1/1 w w30,b30 31';

const mastersSwap = {
  name: 'masters-swap',
  timeout: 60000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const cases = [
      { text: 'h12-j12-h14', swap: 'j12', after: { h14: 'w', j12: 'b', h12: null, h13: 'w' } },
      { text: 'h12-h14', swap: 'h12', after: { h14: 'w', h12: 'b', j12: null, h13: 'w' } },
      { text: 'h13-h14', swap: 'h13', after: { h14: 'w', h13: 'b', h12: 'w', j12: null } },
    ];
    for (const c of cases) {
      let s = await setFen(t, page, 'masters-2', MASTERS_FEN);
      check(s.stm === 'w', `stm ${s.stm}, expected w`);
      const m = legalMove(s, c.text);
      check(m.swap === c.swap, `${c.text} has swap ${JSON.stringify(m.swap)}, expected ${c.swap} (RULES.md: the displaced marble goes where the last step or jump set off)`);
      const sameEnd = s.legal.filter((x) => x.path[0] === m.path[0] && x.path[x.path.length - 1] === 'h14');
      check(sameEnd.length === (c.text === 'h13-h14' ? 1 : 2),
        `the moves of ${m.path[0]} onto h14 are ${sameEnd.map((x) => `${x.text} (swap ${x.swap})`).join(', ')}`);
      s = await clickMove(t, page, m);
      check(s.moves.length === 1, `${s.moves.length} moves after the swap, expected 1: ${summarize(s)}`);
      const played = s.moves[s.moves.length - 1];
      check(played.text === m.text && played.seat === 'w', `the move played is ${JSON.stringify(played)}, expected ${m.text} by w`);
      await checkPieces(page, s, c.after, `after ${c.text}`);
      await checkMoveList(page, s, `after ${c.text}`);
    }
  },
};

// Capture-2 with four pieces (captures 28 and 28, 60 in all; checked with
// build/stern, Variant capture-2: legalmoves lists h11-h13, h11-f13-h13,
// h11-f13, h11-h13-f13 and h11-h13-f13-h11 among others). From h11 two chains
// end on h13: the jump over h12, and the chain over g12 then g13; two end on
// f13 the other way round; one comes back to h11 over all three.
const CAPTURE_FEN = '1/2/3/4/6x6/5xx5/5x5/10/9/10/11/12/13/4/3/2/1 w w10c28,b10c28 11';

const captureChain = {
  name: 'capture-chain',
  timeout: 60000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    let s = await setFen(t, page, 'capture-2', CAPTURE_FEN);

    t.step('edit mode in capture-2: a hole cycles empty, w, b, x, empty');
    await page.click('button#edit-position');
    for (const p of ['w', 'b', 'x', null]) {
      await page.click(holeSel('i9'));
      const got = await pieceOn(page, 'i9');
      check(got === p, `a click on i9 in capture-2's edit mode made it ${got || 'empty'}, expected ${p || 'empty'}`);
    }
    await page.click(holeSel('h11'));
    check((await pieceOn(page, 'h11')) === null, 'a click on the x of h11 in edit mode did not empty it (x is the last piece of the cycle)');
    await page.click('button#edit-cancel');
    await checkBoardMatches(page, await getState(page), 'after cancelling the edit');

    const long = legalMove(s, 'h11-f13-h13'), short = legalMove(s, 'h11-h13');
    check(JSON.stringify([...long.captured].sort()) === '["g12","g13"]' && JSON.stringify(short.captured) === '["h12"]',
      `captured: h11-f13-h13 ${JSON.stringify(long.captured)}, h11-h13 ${JSON.stringify(short.captured)}`);

    // By hand: the marble, the end, then the next hop as lit.
    t.step('click h11');
    await page.click(holeSel('h11'));
    let lit = await litHoles(page);
    check(JSON.stringify(lit) === '["f13","h11","h13"]', `after clicking h11 the lit holes are ${JSON.stringify(lit)}, expected every end: f13 h11 h13`);
    t.step('click h13 (two chains end there)');
    await page.click(holeSel('h13'));
    lit = await litHoles(page);
    check(JSON.stringify(lit) === '["f13","h13"]', `after clicking the ambiguous end h13 the lit holes are ${JSON.stringify(lit)}, expected the next hops f13 h13`);
    const detail = await page.textContent('#status-detail');
    check(/hop by hop/i.test(detail), `#status-detail does not ask for the path hop by hop: ${JSON.stringify(detail)}`);
    check((await getState(page)).ply === 0, 'a move was played on the ambiguous end');
    const cls = await holeClasses(page, 'h11');
    check(cls.includes('selected'), `h11 is not .selected while its path is entered (classes ${cls.join(' ')})`);
    t.step('click f13 (the next hop of h11-f13-h13)');
    await page.click(holeSel('f13'));
    s = await waitState(page, (s) => s.moves.length === 1, null, 'h11-f13-h13 to be played');
    check(s.moves[0].text === 'h11-f13-h13', `the move played is ${s.moves[0].text}, expected h11-f13-h13`);
    await checkPieces(page, s, { h11: null, h13: 'x', g12: null, g13: null, h12: 'x', f13: null }, 'after h11-f13-h13');
    check(s.fen.split(' ')[2] === 'w11c30,b10c28', `the fen's seats after taking two: ${s.fen}`);

    // The other chain to h13, the one to f13 over g12, and the round trip, through clickMove.
    const cases = [
      { text: 'h11-h13', after: { h11: null, h13: 'x', h12: null, g12: 'x', g13: 'x' }, seats: 'w11c29,b10c28' },
      { text: 'h11-f13', after: { h11: null, f13: 'x', g12: null, h12: 'x', g13: 'x' }, seats: 'w11c29,b10c28' },
      { text: 'h11-h13-f13-h11', after: { h11: 'x', h12: null, g13: null, g12: null }, seats: 'w11c31,b10c28' },
    ];
    for (const c of cases) {
      s = await setFen(t, page, 'capture-2', CAPTURE_FEN);
      const m = legalMove(s, c.text);
      s = await clickMove(t, page, m);
      check(s.moves.length === 1 && s.moves[0].text === m.text, `the moves played: ${s.moves.map((x) => x.text).join(' ')}, expected ${m.text}`);
      await checkPieces(page, s, c.after, `after ${c.text}`);
      check(s.fen.split(' ')[2] === c.seats, `the fen's seats after ${c.text}: ${s.fen}, expected ${c.seats}`);
    }
  },
};

export default [mastersSwap, captureChain];
