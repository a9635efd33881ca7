// Bad input to the server, and engines that crash or hang mid-game.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FAKE_ENGINE, check, sleep, sternEngine, openTable, getState, getHello, waitState, bestMove,
  clickMove, waitHumanTurn, newGameByForm, checkMoveList, checkBoardMatches, messages, waitMessage,
  stateCore, wsSend, summarize,
} from './lib.mjs';

const badInput = {
  name: 'bad-input',
  timeout: 40000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const hello = await getHello(page);
    await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    let s = await waitHumanTurn(page);
    await clickMove(t, page, bestMove(hello, s));
    s = await waitHumanTurn(page, 'the engine reply');
    await sleep(300);
    s = await getState(page);
    const before = stateCore(s);

    let n = (await messages(page, 'error')).length;
    t.step('send "{not json" through window.stern.link');
    await wsSend(page, '{not json');
    let errs = await waitMessage(page, 'error', n, 'sending {not json');
    check(errs.every((e) => e.length > 0), 'an empty div.error');
    await sleep(300);
    check(stateCore(await getState(page)) === before, 'the state changed after a malformed message');

    n = (await messages(page, 'error')).length;
    t.step('send an unknown message type');
    await wsSend(page, JSON.stringify({ type: 'teleport', hole: 'e17' }));
    errs = await waitMessage(page, 'error', n, 'sending {"type":"teleport"}');
    await sleep(300);
    check(stateCore(await getState(page)) === before, 'the state changed after an unknown message type');

    n = (await messages(page, 'error')).length;
    const illegal = s.legal.some((m) => m.text === 'm1-m9') ? 'a13-a12' : 'm1-m9';
    t.step(`send the illegal move ${illegal}`);
    await wsSend(page, JSON.stringify({ type: 'move', text: illegal }));
    errs = await waitMessage(page, 'error', n, `sending the illegal move ${illegal}`);
    check(errs.some((e) => e.includes(illegal) || /illegal/i.test(e)), `the error does not name the move or say illegal: ${JSON.stringify(errs)}`);
    await sleep(300);
    s = await getState(page);
    check(stateCore(s) === before, `the state changed after an illegal move: ${summarize(s)}`);
    await checkBoardMatches(page, s, 'after the bad messages');
    await checkMoveList(page, s, 'after the bad messages');

    t.step('the game goes on: play one more move by clicking');
    await clickMove(t, page, bestMove(hello, s));
    await waitState(page, (s) => s.ply === 4 && s.stm === 'w', null, 'ply 4 after the bad messages');
  },
};

// Human White against a fake engine (Black) that misbehaves on its nth go.
// With `clock` (tc "0.1+0": 6 s each) the failed search must cost no clock:
// a hung search held for the whole of Black's clock would lose it on time.
function engineFailure(mode, { nth = 3, clock = false } = {}) {
  const tc = clock ? '0.1+0' : undefined;
  return {
    name: `engine-${mode}${clock ? '-clock' : ''}`,
    needs: 'stern-board (a fake engine program)',
    timeout: 60000,
    async run(t) {
      const dir = mkdtempSync(join(tmpdir(), 'stern-board-test-'));
      const marker = join(dir, `${mode}.marker`);
      try {
        const srv = await t.server([{ cmd: `node ${FAKE_ENGINE} ${mode} ${marker} ${nth}`, name: `Fake-${mode}` }]);
        const page = await openTable(t, srv.url);
        const hello = await getHello(page);
        await newGameByForm(t, page, 'classic-2', ['human', 'engine:0'], tc);
        const nerr0 = (await messages(page, 'error')).length;
        let s, prev = null, prevAt = 0;
        let failedAt = null;
        // enough White moves for the fake's nth go (wherever the server's
        // first go came from) and two more after the restart
        const turns = nth + 3;
        for (let i = 0; i < turns; i++) {
          s = await waitHumanTurn(page, `White's move ${i + 1} (the engine ${mode === 'hang' ? 'hung' : 'crashed'}: ${existsSync(marker)})`,
            mode === 'hang' ? 20000 : 15000);
          const at = Date.now();
          check(!s.over, `the game ended: ${summarize(s)}${s.seats.map((x) => ` ${x.seat} clock ${x.clock_ms}`).join('')}`);
          check(s.ply === 2 * i, `White to move at ply ${s.ply}, expected ${2 * i}: a move was lost or doubled`);
          if (failedAt === null && existsSync(marker)) {
            failedAt = s.ply;
            if (clock && prev) {
              const [bw, bb] = prev.seats.map((x) => x.clock_ms), [aw, ab] = s.seats.map((x) => x.clock_ms);
              const wall = at - prevAt;
              t.step(`the failed turn took ${wall} ms; clocks w ${bw}->${aw} b ${bb}->${ab}`);
              if (mode === 'hang') check(wall > 5000, `the hung turn took only ${wall} ms (expected Black's clock + 2 s)`);
              check(bb - ab < 3000, `Black's clock went from ${bb} to ${ab} ms over the failed search: it was charged for it`);
              check(bw - aw < 1500, `White's clock went from ${bw} to ${aw} ms while Black's engine failed`);
            }
          }
          prev = s;
          await clickMove(t, page, bestMove(hello, s));
          prevAt = Date.now();
        }
        s = await waitHumanTurn(page, 'the reply to White\'s last move', 20000);
        check(existsSync(marker), `the fake engine never reached go #${nth} (marker ${marker} missing)`);
        check(s.ply === 2 * turns, `after ${turns} White moves ply is ${s.ply}, expected ${2 * turns}`);
        for (let i = 0; i < s.ply; i++) {
          check(s.moves[i].seat === (i % 2 ? 'b' : 'w'), `move ${i + 1} by ${s.moves[i].seat}`);
        }
        check(s.seats[1].player === 'engine', `Black became ${s.seats[1].player} (the restart failed)`);
        const errs = (await messages(page, 'error')).slice(nerr0);
        check(errs.length >= 1, `no div.error on the page about the ${mode === 'hang' ? 'hung' : 'crashed'} engine (marker: ${readFileSync(marker, 'utf8').trim()})`);
        const notices = await messages(page, 'notice');
        t.step(`errors ${JSON.stringify(errs)} notices ${JSON.stringify(notices)}`);
        check(errs.some((e) => /engine|fake|crash|exit|hung|hang|answer|time|restart|died|closed/i.test(e)),
          `the div.error does not say what happened to the engine: ${JSON.stringify(errs)}`);
        await checkMoveList(page, s, 'after the restart');
        await checkBoardMatches(page, s, 'after the restart');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// A page of another site (here: another table's page, on another port) may not
// join the table: its WebSocket is refused; the same page connects to its own.
const foreignOrigin = {
  name: 'foreign-origin',
  needs: "stern-board (its WebSocket's origin check)",
  timeout: 20000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const other = await t.server([sternEngine()]);
    const page = await openTable(t, other.url);
    const tryConnect = (url) => page.evaluate((url) => new Promise((resolve) => {
      const ws = new WebSocket(url.replace(/^http/, 'ws') + 'ws');
      ws.onmessage = () => { resolve('message'); ws.close(); };
      ws.onclose = () => resolve('closed');
      setTimeout(() => resolve('nothing'), 5000);
    }), url);
    t.step(`from ${other.url}, a WebSocket to ${srv.url}`);
    const foreign = await tryConnect(srv.url);
    check(foreign === 'closed', `a page of another origin was let in: ${foreign}`);
    // the browser logs the refused handshake as an error: expected here
    page.jsErrors = page.jsErrors.filter((e) => !/WebSocket connection .* failed/.test(e));
    t.step('and to its own server');
    const own = await tryConnect(other.url);
    check(own === 'message', `the page could not connect to its own server: ${own}`);
  },
};

export default [badInput, engineFailure('crash'), engineFailure('hang'), engineFailure('hang', { nth: 2, clock: true }),
  foreignOrigin];
