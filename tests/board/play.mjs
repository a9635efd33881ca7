// Playing at the table: a whole game by clicking, the keyboard, the confirm
// before a self-eliminating move, six seats, clocks and resignation, goto.
import { join } from 'node:path';
import {
  BUILD, check, fail, sleep, sternEngine, openTable, getState, getHello, waitState, bestMove,
  clickMove, waitHumanTurn, newGameByForm, checkMoveList, checkBoardMatches, moveFrom, moveTo,
  holeClasses, litHoles, recordSends, sentMessages, wsSend, stateCore, summarize, checkTurnedFor,
} from './lib.mjs';

// 1. A whole classic-2 game: human White clicks, Stern plays Black.
const fullGame = {
  name: 'full-game',
  timeout: 240000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const hello = await getHello(page);
    const s0 = await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    await checkTurnedFor(page, s0.seats[0], 'classic-2, White human');
    await checkBoardMatches(page, s0, 'at the start');
    let shot = false;
    for (let turn = 1; ; turn++) {
      t.step(`turn ${turn}: wait for White's turn`);
      const s = await waitHumanTurn(page, `White's turn ${turn} or the end`, 20000);
      if (s.over) break;
      check(s.stm === 'w', `a human turn with stm ${s.stm}, expected w (the only human seat)`);
      if (turn > 200) fail(`no end after 200 White moves: ${summarize(s)}`);
      const m = bestMove(hello, s);
      check(m, `no legal move to choose: ${summarize(s)}`);
      await clickMove(t, page, m);
      if (!shot && s.ply >= 12) {
        t.step('screenshot build/board-game.png (a game in progress)');
        await page.screenshot({ path: join(BUILD, 'board-game.png'), fullPage: true });
        shot = true;
      }
    }
    t.step('the game is over: check the move list and the status');
    await sleep(300);
    const s = await getState(page);
    check(s.over, 'state.over is not true');
    check(s.termination, `state.termination is ${JSON.stringify(s.termination)} at the end`);
    await checkMoveList(page, s, 'at the end');
    check(s.moves.length >= 20, `only ${s.moves.length} moves in a finished classic-2 game`);
    for (let i = 0; i < s.moves.length; i++) {
      check(s.moves[i].ply === i + 1, `state.moves[${i}].ply is ${s.moves[i].ply}`);
      check(s.moves[i].seat === (i % 2 ? 'b' : 'w'), `state.moves[${i}] is by ${s.moves[i].seat}`);
    }
    await checkBoardMatches(page, s, 'at the end');
    const status = (await page.textContent('#status')).trim();
    check(/over|won|wins|win\b|draw|ended|finished|result|1-0|0-1|arrived|eliminated/i.test(status),
      `#status does not say the game is over: ${JSON.stringify(status)} (termination ${s.termination})`);
    check((await page.$$('svg#eval-graph polyline[data-seat]')).length >= 1,
      'svg#eval-graph has no polyline[data-seat] after a whole game against the engine');
  },
};

// Moves the keyboard cursor onto hole `goal` with the arrow keys, choosing each
// key by where the holes are drawn (whatever way the board is turned).
async function cursorTo(t, page, goal) {
  const centres = await page.$$eval('#board g.hole', (gs) => Object.fromEntries(gs.map((g) => {
    const r = g.getBoundingClientRect();
    return [g.dataset.hole, [r.x + r.width / 2, r.y + r.height / 2]];
  })));
  const cursor = () => page.$$eval('#board g.hole.cursor', (gs) => gs.map((g) => g.dataset.hole));
  const dist = (h) => Math.hypot(centres[h][0] - centres[goal][0], centres[h][1] - centres[goal][1]);
  let cur = await cursor();
  if (!cur.length) {
    await page.keyboard.press('ArrowUp');
    cur = await cursor();
  }
  check(cur.length === 1, `after focusing svg#board and an arrow key, ${cur.length} holes have .cursor (${cur.join(' ')})`);
  let at = cur[0];
  const trail = [at];
  for (let presses = 0; at !== goal; presses++) {
    if (presses > 60) fail(`the cursor did not reach ${goal} in 60 arrow presses (trail ${trail.join(' ')})`);
    const [dx, dy] = [centres[goal][0] - centres[at][0], centres[goal][1] - centres[at][1]];
    const keys = Math.abs(dx) >= Math.abs(dy)
      ? [dx > 0 ? 'ArrowRight' : 'ArrowLeft', dy > 0 ? 'ArrowDown' : 'ArrowUp']
      : [dy > 0 ? 'ArrowDown' : 'ArrowUp', dx > 0 ? 'ArrowRight' : 'ArrowLeft'];
    let moved = false;
    for (const k of keys) {
      await page.keyboard.press(k);
      const c = await cursor();
      check(c.length === 1, `after ${k}, ${c.length} holes have .cursor`);
      if (c[0] !== at) {
        const better = dist(c[0]) < dist(at);
        at = c[0];
        trail.push(`${k}:${at}`);
        if (better) { moved = true; break; }
      }
    }
    if (!moved && at !== goal) {
      // the main keys gave nothing better: take any key that gets closer
      for (const k of ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']) {
        const d0 = dist(at);
        await page.keyboard.press(k);
        const c = (await cursor())[0];
        if (c !== at) { at = c; trail.push(`${k}:${at}`); }
        if (dist(at) < d0) { moved = true; break; }
      }
      if (!moved) fail(`the arrow keys do not bring the cursor closer to ${goal} from ${at} (trail ${trail.join(' ')})`);
    }
  }
  t.step(`cursor on ${goal} (trail ${trail.join(' ')})`);
}

// 2. Keyboard play: arrows, Enter, Esc.
const keyboard = {
  name: 'keyboard',
  timeout: 60000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const hello = await getHello(page);
    await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    let s = await waitHumanTurn(page);
    const m = bestMove(hello, s);
    const from = moveFrom(m), to = moveTo(m);
    t.step('focus svg#board');
    await page.focus('svg#board').catch(() => fail('svg#board cannot be focused (no tabindex?)'));
    check(await page.evaluate(() => document.activeElement && document.activeElement.id === 'board'),
      'svg#board is not document.activeElement after focusing it');
    await cursorTo(t, page, from);
    t.step(`Enter on ${from}`);
    await page.keyboard.press('Enter');
    let cls = await holeClasses(page, from);
    check(cls.includes('selected'), `Enter on ${from} did not select it (classes ${cls.join(' ')})`);
    const dests = [...new Set(s.legal.filter((x) => x.path[0] === from).map(moveTo))].sort();
    check(JSON.stringify(await litHoles(page)) === JSON.stringify(dests),
      `after Enter on ${from}: lit ${JSON.stringify(await litHoles(page))}, legal ends ${JSON.stringify(dests)}`);
    t.step('Esc puts the marble down');
    await page.keyboard.press('Escape');
    cls = await holeClasses(page, from);
    check(!cls.includes('selected') && (await litHoles(page)).length === 0,
      `after Esc ${from} is still selected or holes are lit (${cls.join(' ')}; lit ${(await litHoles(page)).join(' ')})`);
    check((await getState(page)).ply === 0, 'Esc sent a move');
    t.step(`Enter on ${from} again`);
    await page.keyboard.press('Enter');
    cls = await holeClasses(page, from);
    check(cls.includes('selected'), `the second Enter on ${from} did not select it`);
    await cursorTo(t, page, to);
    cls = await holeClasses(page, to);
    check(cls.includes('lit'), `${to} is not lit with the cursor on it (classes ${cls.join(' ')})`);
    t.step(`Enter on ${to}`);
    await page.keyboard.press('Enter');
    s = await waitState(page, (s) => s.moves.length >= 1, null, `the move ${m.text} entered by keyboard`);
    check(s.moves[0].text === m.text && s.moves[0].seat === 'w',
      `the first move is ${JSON.stringify(s.moves[0])}, expected ${m.text} by w`);
    s = await waitHumanTurn(page, 'the engine reply');
    await checkMoveList(page, s, 'after the keyboard move and the reply');
    await checkBoardMatches(page, s, 'after the keyboard move and the reply');
    const b = await page.$eval(`#board g.hole[data-hole="${to}"]`, (g) => g.dataset.piece || null);
    check(b === 'w', `hole ${to} shows piece ${b} after ${m.text}`);
    const f = await page.$eval(`#board g.hole[data-hole="${from}"]`, (g) => g.dataset.piece || null);
    check(!f, `hole ${from} still shows piece ${f} after ${m.text}`);
  },
};

// 3. Classic-3, White's 30th move: j5-j4 goes back home after the deadline.
// Checked with build/stern: legalmoves lists j5-j4 and j5-k4; after j5-j4 the
// FEN reads `… u w30!3,u29,y29 30` (white eliminated, third, marbles removed).
export const ELIM_FEN = '1/ww/www/wwww/13/4yyyyy3/3yyyyy3/10/1uuuuu3/1uuuuu4/11/12/5w7/4/3/2/1 w w29,u29,y29 30';

const confirmEliminate = {
  name: 'confirm-eliminate',
  timeout: 60000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    t.step('send {"type":"new", classic-3, three humans, fen} through window.stern.link');
    await wsSend(page, JSON.stringify({
      type: 'new', variant: 'classic-3', tc: {}, fen: ELIM_FEN,
      seats: [{ player: 'human' }, { player: 'human' }, { player: 'human' }],
    }));
    let s = await waitState(page, (s, fen) => s.variant === 'classic-3' && s.fen === fen, ELIM_FEN,
      'the classic-3 position from the FEN');
    check(s.stm === 'w' && s.mode === 'play', `stm ${s.stm}, mode ${s.mode}`);
    const elim = s.legal.find((m) => m.text === 'j5-j4');
    check(elim, `state.legal lacks j5-j4: ${s.legal.map((m) => m.text).join(' ')}`);
    check(elim.eliminates === true, `j5-j4 has eliminates ${elim.eliminates}, expected true (white's 30th move back home)`);
    const safe = s.legal.find((m) => m.text === 'j5-j6');
    check(safe && safe.eliminates === false, `j5-j6 should be legal and not eliminate: ${JSON.stringify(safe)}`);
    await checkBoardMatches(page, s, 'from the FEN');
    await checkTurnedFor(page, s.seats[0], 'classic-3 from the FEN');
    const before = stateCore(s);
    await recordSends(page);

    // dismiss
    page.dialogAction = 'dismiss';
    await clickMove(t, page, elim, { expectConfirm: true });
    t.step('wait for the confirm (dismissed)');
    for (let i = 0; i < 50 && !page.dialogs.length; i++) await sleep(100);
    check(page.dialogs.length === 1, `clicking j5 then j4 (eliminating) asked ${page.dialogs.length} dialogs, expected one window.confirm`);
    const d1 = page.dialogs[0];
    check(d1.type === 'confirm', `the dialog is a ${d1.type}, not a confirm`);
    await sleep(800);
    const sent1 = (await sentMessages(page)).filter((m) => m.type === 'move');
    check(!sent1.length, `a move was sent although the confirm was dismissed: ${JSON.stringify(sent1)}`);
    s = await getState(page);
    check(stateCore(s) === before, `the state changed after dismissing the confirm: ${summarize(s)}`);
    await checkBoardMatches(page, s, 'after dismissing');
    check((await page.$eval('#board g.hole[data-hole="j5"]', (g) => g.dataset.piece)) === 'w', 'j5 lost its marble on the page after dismissing');

    // accept
    page.dialogAction = 'accept';
    const cls = await holeClasses(page, 'j5');
    if (cls.includes('selected')) {
      t.step('j5 still selected after the dismiss: click j4');
      await page.click('#board g.hole[data-hole="j4"]');
    } else {
      await clickMove(t, page, elim, { expectConfirm: true });
    }
    t.step('wait for the confirm (accepted)');
    for (let i = 0; i < 50 && page.dialogs.length < 2; i++) await sleep(100);
    check(page.dialogs.length === 2, `the second try at j5-j4 asked ${page.dialogs.length - 1} dialogs, expected one confirm`);
    const msg = d1.message;
    s = await waitState(page, (s) => s.moves.length === 1, null, 'j5-j4 to be played after accepting');
    check(s.moves[0].text === 'j5-j4', `the move played is ${s.moves[0].text}`);
    const w = s.seats.find((x) => x.seat === 'w');
    check(w.status === 'eliminated', `white's status is ${w.status}, expected eliminated`);
    check(w.place === 3, `white's place is ${w.place}, expected 3 (the worst free place)`);
    check(!s.over && s.stm === 'u', `after the elimination: over ${s.over}, stm ${s.stm} (expected blue to move)`);
    check(!Object.values(s.board).includes('w'), 'white marbles are still on state.board after its elimination');
    check(/\bu\b|w30!3/.test(s.fen), `fen ${s.fen}`);
    await checkBoardMatches(page, s, 'after the elimination');
    await checkMoveList(page, s, 'after the elimination');
    t.step(`(confirm text was ${JSON.stringify(msg)})`);
  },
};

// 4. Classic-6: the human plays White, five Stern seats answer each time.
const sixSeats = {
  name: 'six-seats',
  timeout: 90000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const hello = await getHello(page);
    const order = ['w', 'r', 'u', 'b', 'y', 'g'];
    await newGameByForm(t, page, 'classic-6', ['human', 'engine:0', 'engine:0', 'engine:0', 'engine:0', 'engine:0']);
    let s = await getState(page);
    check(JSON.stringify(s.seats.map((x) => x.seat)) === JSON.stringify(order), `seats ${s.seats.map((x) => x.seat)}`);
    await checkTurnedFor(page, s.seats[0], 'classic-6, White human');
    for (let round = 1; round <= 3; round++) {
      t.step(`round ${round}: wait for White`);
      s = await waitState(page, (s, n) => s.ply === n && s.stm === 'w' && s.legal.length > 0, (round - 1) * 6,
        `White to move at ply ${(round - 1) * 6}`, 20000);
      if (round === 2) await page.screenshot({ path: join(BUILD, 'board-six-seats-round2.png'), fullPage: true });
      await clickMove(t, page, bestMove(hello, s));
    }
    s = await waitState(page, (s) => s.ply === 18 && s.stm === 'w' && s.legal.length > 0, null,
      'the engines to answer the third round', 20000);
    for (let i = 0; i < 18; i++) {
      check(s.moves[i].seat === order[i % 6], `move ${i + 1} by ${s.moves[i].seat}, expected ${order[i % 6]}`);
    }
    await checkMoveList(page, s, 'after three rounds');
    await checkBoardMatches(page, s, 'after three rounds');
    const status = (await page.textContent('#status')).trim();
    check(/white/i.test(status), `#status does not name White as the seat to move: ${JSON.stringify(status)}`);
  },
};

// Clocks run down for the seat to move only; Resign ends the game.
const clocksResign = {
  name: 'clocks-resign',
  timeout: 40000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    let s = await newGameByForm(t, page, 'classic-2', ['human', 'human'], '5+0');
    check(s.seats.every((x) => x.clock_ms > 290000 && x.clock_ms <= 300000),
      `clock_ms ${s.seats.map((x) => x.clock_ms)} for 5+0`);
    const read = () => page.$$eval('#clocks span.clock[data-seat]', (e) => Object.fromEntries(e.map((x) => [x.dataset.seat, x.textContent.trim()])));
    const c0 = await read();
    check(c0.w && c0.b, `#clocks shows ${JSON.stringify(c0)}, expected span.clock for w and b`);
    await sleep(2300);
    const c1 = await read();
    check(c1.w !== c0.w, `White's clock (to move) did not count down: ${c0.w} then ${c1.w}`);
    check(c1.b === c0.b, `Black's clock changed while White was to move: ${c0.b} then ${c1.b}`);
    t.step('click #resign');
    page.dialogAction = 'accept';
    await page.click('button#resign');
    s = await waitState(page, (s) => s.over, null, 'the game to end by the resignation');
    const w = s.seats.find((x) => x.seat === 'w');
    check(w.status === 'forfeited', `white's status is ${w.status} after resigning, expected forfeited`);
    const status = (await page.textContent('#status')).trim();
    check(/over|won|wins|resign|forfeit|1-0|0-1/i.test(status), `#status after resigning: ${JSON.stringify(status)}`);
  },
};

// Clicking a move in the list shows the position after it.
const gotoMove = {
  name: 'goto',
  timeout: 45000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const hello = await getHello(page);
    await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    const fens = [];
    for (let i = 0; i < 3; i++) {
      const s = await waitHumanTurn(page);
      fens[s.ply] = s.fen;
      await clickMove(t, page, bestMove(hello, s));
    }
    let s = await waitState(page, (s) => s.ply === 6 && s.stm === 'w', null, 'ply 6');
    fens[6] = s.fen;
    t.step('check the move list at ply 6');
    await checkMoveList(page, s, 'at ply 6');
    t.step('click li[data-ply="2"]');
    await page.click('ol#moves li[data-ply="2"]');
    s = await waitState(page, (s) => s.shown === 2, null, 'state.shown 2 after clicking the second move');
    check(s.ply === 6, `ply became ${s.ply} after a goto`);
    check(s.fen === fens[2], `the shown fen ${s.fen} is not the position after move 2 (${fens[2]})`);
    await checkBoardMatches(page, s, 'after clicking move 2');
    t.step('click li[data-ply="6"]');
    await page.click('ol#moves li[data-ply="6"]');
    s = await waitState(page, (s) => s.shown === 6, null, 'state.shown 6 after clicking the last move');
    check(s.fen === fens[6], 'the position after clicking the last move is not the current one');
    await checkBoardMatches(page, s, 'after clicking move 6');
    const lm = await page.$$eval('#board g.hole.last-move', (g) => g.map((x) => x.dataset.hole));
    const last = s.moves[5].text.split('-');
    check(lm.includes(last[0]) && lm.includes(last[last.length - 1]),
      `.last-move marks ${JSON.stringify(lm)}, expected the ends of ${s.moves[5].text}`);
    t.step('click #start');
    await page.click('#start');
    s = await waitState(page, (s) => s.shown === 0, null, 'state.shown 0 after clicking #start');
    check(s.fen === fens[0], `the position after #start ${s.fen} is not the start ${fens[0]}`);
    await checkBoardMatches(page, s, 'after #start');
    check((await page.$$('#board g.hole.last-move')).length === 0, '.last-move marks holes at the start position');
  },
};

export default [fullGame, keyboard, confirmEliminate, sixSeats, clocksResign, gotoMove];
