// PGN: save a game, load it into a fresh table, refuse a record with a bad line.
import {
  check, fail, sleep, sternEngine, openTable, getState, getHello, waitState, bestMove, clickMove,
  waitHumanTurn, newGameByForm, checkMoveList, checkBoardMatches, messages, waitMessage, stateCore, moveList,
} from './lib.mjs';

const pgn = {
  name: 'pgn',
  timeout: 60000,
  async run(t) {
    const a = await t.server([sternEngine()]);
    const page = await openTable(t, a.url);
    const hello = await getHello(page);
    await newGameByForm(t, page, 'classic-2', ['human', 'engine:0']);
    for (let i = 0; i < 3; i++) {
      const s = await waitHumanTurn(page);
      await clickMove(t, page, bestMove(hello, s));
    }
    const played = await waitState(page, (s) => s.ply === 6 && s.stm === 'w', null, 'ply 6');
    const texts = played.moves.map((m) => m.text);

    t.step('click #pgn-save');
    await page.click('button#pgn-save');
    try {
      await page.waitForFunction(() => /\[Variant "/.test(document.querySelector('textarea#pgn-text').value), null, { timeout: 5000 });
    } catch {
      fail(`textarea#pgn-text holds no [Variant tag after #pgn-save: ${JSON.stringify((await page.inputValue('textarea#pgn-text')).slice(0, 200))}`);
    }
    const text = await page.inputValue('textarea#pgn-text');
    check(text.includes('[Variant "classic-2"]'), `the saved PGN lacks [Variant "classic-2"]:\n${text}`);
    const body = text.slice(text.search(/\n\s*\n/));
    let at = 0;
    for (const m of texts) {
      const i = body.indexOf(m, at);
      check(i >= 0, `the saved PGN's movetext lacks ${m} (in order) — moves ${texts.join(' ')}:\n${text}`);
      at = i + m.length;
    }
    check(/\*\s*$/.test(body.trim()) || /\[Result "\*"\]/.test(text), 'the saved PGN of a game in progress does not have the result *');
    const href = await page.getAttribute('a#pgn-download', 'href');
    check(href && href !== '#', `a#pgn-download has href ${JSON.stringify(href)} after saving`);

    // a fresh table
    const b = await t.server([sternEngine()]);
    const page2 = await openTable(t, b.url);
    t.mainPage = page2;
    t.step('paste the PGN into the fresh table and click #pgn-load');
    await page2.fill('textarea#pgn-text', text);
    await page2.click('button#pgn-load');
    let s = await waitState(page2, (s, texts) => s.moves.length === texts.length
      && s.moves.every((m, i) => m.text === texts[i]), texts, `the loaded game (${texts.join(' ')})`);
    check(s.variant === 'classic-2', `the loaded game's variant is ${s.variant}`);
    check(s.fen === played.fen, `the loaded game's position ${s.fen} differs from the saved one ${played.fen}`);
    await checkMoveList(page2, s, 'after loading');
    await checkBoardMatches(page2, s, 'after loading');
    const shown = (await moveList(page2)).map((x) => x.text);

    // a bad line: the third move replaced by an illegal one
    const bad = 'm1-m9';
    const re = new RegExp(`(?<![\\w-])${texts[2].replace(/-/g, '\\-')}(?![\\w-])`);
    const bodyAt = text.search(/\n\s*\n/);
    const k = text.slice(bodyAt).search(re);
    check(k >= 0, `cannot find ${texts[2]} in the movetext`);
    const pos = bodyAt + k;
    const badText = text.slice(0, pos) + bad + text.slice(pos + texts[2].length);
    const line = text.slice(0, pos).split('\n').length;
    await sleep(300);
    s = await getState(page2);
    const before = stateCore(s);
    const nerr = (await messages(page2, 'error')).length;
    t.step(`load the PGN with ${bad} on line ${line}`);
    await page2.fill('textarea#pgn-text', badText);
    await page2.click('button#pgn-load');
    const errs = await waitMessage(page2, 'error', nerr, `loading a PGN with the illegal move ${bad} on line ${line}`);
    // "line 12", or the file:line form "pgn:12:"
    const named = errs.find((e) => new RegExp(`line\\D{0,3}${line}\\b|:${line}:`, 'i').test(e));
    check(named, `the error does not name line ${line} ("line ${line}" or ":${line}:"): ${JSON.stringify(errs)}`);
    await sleep(500);
    s = await getState(page2);
    check(stateCore(s) === before, 'the table changed after a PGN with a bad line');
    check(JSON.stringify((await moveList(page2)).map((x) => x.text)) === JSON.stringify(shown),
      'the move list changed after a PGN with a bad line');
  },
};

export default [pgn];
