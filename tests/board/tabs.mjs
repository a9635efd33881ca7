// Several tabs watch one table: a move clicked in one shows in the other, a
// refusal goes only to the tab that sent it, and a tab opened mid-game gets the
// game so far.
import {
  check, sternEngine, openTable, getHello, getState, waitState, bestMove, clickMove, waitHumanTurn,
  newGameByForm, checkMoveList, checkBoardMatches, messages, wsSend, waitMessage, sleep,
} from './lib.mjs';

const tabs = {
  name: 'two-tabs',
  needs: 'stern-board (one table shared by pages)',
  timeout: 60000,
  async run(t) {
    const server = await t.server([sternEngine()]);
    const a = await openTable(t, server.url);
    const b = await openTable(t, server.url);
    const hello = await getHello(a);
    await newGameByForm(t, a, 'classic-2', ['human', 'engine:0']);
    for (let i = 0; i < 2; i++) {
      const s = await waitHumanTurn(a);
      await clickMove(t, a, bestMove(hello, s));
    }
    const played = await waitState(a, (s) => s.ply === 4 && s.stm === 'w', null, 'ply 4 in the first tab');
    t.step('the second tab shows the same game');
    const seen = await waitState(b, (s, fen) => s.fen === fen, played.fen, 'the first tab\'s position in the second tab');
    check(seen.moves.map((m) => m.text).join(' ') === played.moves.map((m) => m.text).join(' '),
      'the two tabs list different moves');
    await checkMoveList(b, seen, 'second tab');
    await checkBoardMatches(b, seen, 'second tab');

    t.step('a refusal goes to its tab alone');
    const errorsB = (await messages(b, 'error')).length;
    const errorsA = (await messages(a, 'error')).length;
    await wsSend(b, '{"type":"move","text":"a1-a2"}');
    await waitMessage(b, 'error', errorsB, 'the refusal in the tab that sent it');
    await sleep(300);
    check((await messages(a, 'error')).length === errorsA, 'the other tab was shown the refusal too');

    t.step('the second tab plays the human move; the first tab follows');
    await clickMove(t, b, bestMove(hello, await getState(b)));
    await waitState(a, (s) => s.ply >= 5, null, 'the second tab\'s move in the first tab');

    t.step('a tab opened mid-game gets the game so far');
    const now = await waitState(a, (s) => s.ply === 6 && s.stm === 'w', null, 'ply 6');
    const c = await openTable(t, server.url);
    const late = await getState(c);
    check(late.fen === now.fen && late.moves.length === 6, `the late tab shows ply ${late.ply}, not the game's 6`);
  },
};

export default [tabs];
