// Helpers for the table's browser tests: the server, the page, the board's
// geometry, choosing and entering moves the way a person would.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BUILD = join(ROOT, process.env.BOARD_BUILD || 'build'); // make test-board passes its BUILD
export const BOARD_BIN = join(BUILD, 'stern-board');
export const STERN_BIN = join(BUILD, 'stern');
export const FAKE_ENGINE = join(ROOT, 'tests', 'board', 'fake-engine.mjs');

// The time control typed into #new-tc: a few ms a move for the engines.
export const TC = process.env.BOARD_TC || '0.05s';

export class TestFailure extends Error {}
export function fail(msg) { throw new TestFailure(msg); }
export function check(cond, msg) { if (!cond) fail(msg); }

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the server

// Starts build/stern-board -port 0 with the given engines ([{cmd, name, options}])
// and resolves with {url, proc, output()} once it printed its address.
//
// BOARD_STATIC=plain or =isolated tests the board as a static site instead
// (docs/WEB.md): BUILD/web served by `python3 -m http.server` (plain) or by
// tools/web/serve.py --isolated (the COOP/COEP headers), the table and its
// engine (Stern, the only one it has) running in the page.
export const STATIC = process.env.BOARD_STATIC || '';
export function startServer(engines, opts = {}) {
  return STATIC ? startStatic(opts) : startBoard(engines, opts);
}

function startStatic({ timeout = 15000 } = {}) {
  const dir = join(BUILD, 'web');
  const [cmd, args] = STATIC === 'isolated'
    ? ['python3', [join(ROOT, 'tools', 'web', 'serve.py'), '--isolated', '--port', '0', dir]]
    : ['python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir]];
  const proc = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const log = [];
  const keep = (src) => (line) => { log.push(`${src}: ${line}`); if (log.length > 400) log.shift(); };
  createInterface({ input: proc.stderr }).on('line', keep('stderr'));
  const server = { proc, args, url: null, output: () => log.join('\n'), command: `${cmd} ${args.join(' ')}` };
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new TestFailure(`${server.command} did not print its port within ${timeout} ms`)), timeout);
    createInterface({ input: proc.stdout }).on('line', (line) => {
      keep('stdout')(line);
      const m = /^(\d+)$/.exec(line.trim()) || /port (\d+)/.exec(line);
      if (m && !server.url) {
        server.url = `http://127.0.0.1:${m[1]}/`;
        clearTimeout(timer);
        res(server);
      }
    });
    proc.on('error', (e) => { clearTimeout(timer); rej(new TestFailure(`cannot start ${cmd}: ${e.message}`)); });
  });
}

function startBoard(engines, { timeout = 15000, extraArgs = [] } = {}) {
  const args = ['-port', '0'];
  for (const e of engines) {
    args.push('-engine', `cmd=${e.cmd}`);
    if (e.name) args.push(`name=${e.name}`);
    for (const [k, v] of Object.entries(e.options || {})) args.push(`option.${k}=${v}`);
  }
  // BOARD_ROOT serves the page from another folder (-root), e.g. a page being changed.
  if (process.env.BOARD_ROOT) args.push('-root', process.env.BOARD_ROOT);
  args.push(...extraArgs);
  const proc = spawn(BOARD_BIN, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const log = [];
  const keep = (src) => (line) => { log.push(`${src}: ${line}`); if (log.length > 400) log.shift(); };
  createInterface({ input: proc.stderr }).on('line', keep('stderr'));
  const out = createInterface({ input: proc.stdout });
  const server = {
    proc, args, url: null,
    output: () => log.join('\n'),
    command: `build/stern-board ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`,
  };
  return new Promise((res, rej) => {
    const timer = setTimeout(() => {
      rej(new TestFailure(`server did not print its address within ${timeout} ms (${server.command})\n${server.output()}`));
    }, timeout);
    out.on('line', (line) => {
      keep('stdout')(line);
      const m = /^stern-board: (http:\/\/\S+?)\/?$/.exec(line.trim());
      if (m && !server.url) {
        server.url = m[1] + '/';
        clearTimeout(timer);
        res(server);
      }
    });
    proc.on('error', (e) => { clearTimeout(timer); rej(new TestFailure(`cannot start ${BOARD_BIN}: ${e.message}`)); });
    proc.on('exit', (code, sig) => {
      server.exited = { code, sig };
      if (!server.url) {
        clearTimeout(timer);
        rej(new TestFailure(`server exited (${sig || 'status ' + code}) before printing its address (${server.command})\n${server.output()}`));
      }
    });
  });
}

// Ends a server we started, and its engines (its process group), by its id.
export async function stopServer(server) {
  const p = server.proc;
  if (p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise((r) => p.once('exit', r));
  try { process.kill(-p.pid, 'SIGTERM'); } catch { try { p.kill('SIGTERM'); } catch {} }
  const t = setTimeout(() => { try { process.kill(-p.pid, 'SIGKILL'); } catch {} }, 3000);
  await gone;
  clearTimeout(t);
  // engines left behind in the group
  try { process.kill(-p.pid, 'SIGKILL'); } catch {}
}

export const sternEngine = (extra = {}) => ({ cmd: STERN_BIN, name: 'Stern', ...extra });

// ------------------------------------------------------------------ geometry

export function holeMap(hello) {
  const m = new Map();
  for (const h of hello.holes) m.set(h.name, { q: h.q, r: h.r });
  return m;
}
export function hexDist(a, b) {
  const dq = a.q - b.q, dr = a.r - b.r;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

// The legal move with the most progress toward the mover's target: first the
// distance to the nearest target hole, then (inside the target) the distance
// to the target's tip, so that the target fills from the back. Moves that
// would eliminate the mover are taken only when nothing else is legal.
export function bestMove(hello, state, opts = {}) {
  const H = holeMap(hello);
  const seat = state.seats.find((s) => s.seat === state.stm);
  if (!seat) fail(`state.stm ${JSON.stringify(state.stm)} is not one of state.seats`);
  const T = seat.target.map((n) => H.get(n));
  const inT = new Set(seat.target);
  const centre = { q: 0, r: 0 };
  const tip = T.reduce((a, b) => (hexDist(b, centre) > hexDist(a, centre) ? b : a));
  const phi = (n) => (inT.has(n) ? 0 : Math.min(...T.map((t) => hexDist(H.get(n), t))));
  const deep = (n) => hexDist(H.get(n), tip);
  // From the 12th own move on, bringing a marble out of the home comes first,
  // so that the exit deadline (RULES.md section 5) does not eliminate the seat.
  const home = new Set(seat.home);
  const own = state.moves.filter((m) => m.seat === seat.seat).length;
  let moves = state.legal.filter((m) => !m.eliminates);
  if (!moves.length) moves = state.legal;
  if (opts.filter) moves = moves.filter(opts.filter);
  let best = null, bestScore = -Infinity;
  for (const m of moves) {
    const a = m.path[0], b = m.path[m.path.length - 1];
    const out = own >= 12 && home.has(a) && !home.has(b) ? 100000 : 0;
    const score = out + 1000 * (phi(a) - phi(b)) + 10 * (deep(a) - deep(b)) + phi(a) / 100;
    if (score > bestScore) { bestScore = score; best = m; }
  }
  return best;
}

export const moveFrom = (m) => m.path[0];
export const moveTo = (m) => m.path[m.path.length - 1];

// ------------------------------------------------------------------ the page

// Opens the table in a new context; collects page errors and console errors.
export async function openTable(t, url, { viewport = { width: 1280, height: 900 } } = {}) {
  const context = await t.browser.newContext({ viewport, bypassCSP: true });
  t.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(8000); // a click on something that is not there fails soon
  page.jsErrors = [];
  page.on('pageerror', (e) => page.jsErrors.push(`page error: ${e.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') page.jsErrors.push(`console error: ${msg.text()}`); });
  // Every dialog is noted in page.dialogs and answered at once (a pending
  // dialog would block the click that opened it): dismissed, unless the test
  // set page.dialogAction = 'accept'.
  page.dialogs = [];
  page.dialogAction = 'dismiss';
  page.on('dialog', (d) => {
    const action = page.dialogAction;
    page.dialogs.push({ type: d.type(), message: d.message(), action });
    (action === 'accept' ? d.accept() : d.dismiss()).catch(() => {});
  });
  // A log of what went over the WebSocket and of clicks on holes, for the
  // failure reasons (window.__wslog; the page's own code is untouched).
  await context.addInitScript(() => {
    const log = window.__wslog = [];
    const t0 = performance.now();
    const add = (...a) => { log.push(`${Math.round(performance.now() - t0)}ms ${a.join(' ')}`); if (log.length > 300) log.shift(); };
    const Orig = window.WebSocket;
    function Logged(url, protocols) {
      const ws = protocols === undefined ? new Orig(url) : new Orig(url, protocols);
      ws.addEventListener('message', (e) => {
        let m;
        try { m = JSON.parse(e.data); } catch { add('in ?', String(e.data).slice(0, 80)); return; }
        if (m.type === 'state') {
          add('in state', `ply ${m.ply} shown ${m.shown} stm ${m.stm} mode ${m.mode} over ${m.over} thinking ${m.thinking} legal ${m.legal && m.legal.length}`);
        } else if (m.type === 'analysis') {
          add('in analysis', `ply ${m.ply} lines ${m.lines && m.lines.length}`);
        } else add('in', m.type, (m.message || '').slice(0, 160));
      });
      const send = ws.send.bind(ws);
      ws.send = (d) => { add('out', String(d).slice(0, 160)); return send(d); };
      return ws;
    }
    Logged.prototype = Orig.prototype;
    for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Logged[k] = Orig[k];
    window.WebSocket = Logged;
    document.addEventListener('click', (e) => {
      const g = e.target && e.target.closest && e.target.closest('g.hole');
      add('click', g ? `hole ${g.dataset.hole} (${g.getAttribute('class')})` : (e.target.id || e.target.tagName));
    }, true);
  });
  if (!t.mainPage) t.mainPage = page;
  t.step(`open ${url}`);
  await page.goto(url, { timeout: 10000 });
  t.step('wait for body[data-ready="1"] (hello and the first state)');
  await page.waitForFunction(() => document.body && document.body.dataset.ready === '1'
    && window.stern && window.stern.hello && window.stern.state, null, { timeout: 10000 })
    .catch(() => fail('body[data-ready="1"] with window.stern.hello and .state did not appear within 10 s'));
  return page;
}

export const getState = (page) => page.evaluate(() => window.stern.state);
export const getHello = (page) => page.evaluate(() => window.stern.hello);

// Waits until fn(state, arg) is true in the page; fails with `what`.
export async function waitState(page, fn, arg, what, timeout = 10000) {
  const src = fn.toString();
  try {
    await page.waitForFunction(([src, arg]) => {
      const s = window.stern && window.stern.state;
      if (!s) return false;
      // eslint-disable-next-line no-eval
      return (0, eval)('(' + src + ')')(s, arg);
    }, [src, arg], { timeout, polling: 50 });
  } catch (e) {
    if (!/Timeout/i.test(e.message)) throw e;
    const s = await getState(page).catch(() => null);
    fail(`timed out after ${timeout} ms waiting for ${what}; last state: ${summarize(s)}${await wsTail(page)}`);
  }
  return getState(page);
}

// The last entries of the page's WebSocket log, for a failure reason.
export async function wsTail(page, n = 8) {
  const log = await page.evaluate(() => window.__wslog || []).catch(() => []);
  return log.length ? `; last WebSocket traffic: ${log.slice(-n).join(' | ')}` : '';
}

export function summarize(s) {
  if (!s) return 'none';
  return JSON.stringify({
    variant: s.variant, mode: s.mode, ply: s.ply, shown: s.shown, stm: s.stm, over: s.over,
    termination: s.termination, thinking: s.thinking, legal: s.legal && s.legal.length,
    seats: s.seats && s.seats.map((x) => `${x.seat}:${x.player}:${x.status}`).join(' '),
    last: s.moves && s.moves.length ? s.moves[s.moves.length - 1].text : null,
  });
}

// The texts of div.error / div.notice in #messages.
export const messages = (page, cls) => page.$$eval(`#messages div.${cls}`, (els) => els.map((e) => e.textContent.trim()));

// Waits until #messages holds more than `before` div.<cls>; returns the new ones.
export async function waitMessage(page, cls, before, what, timeout = 5000) {
  try {
    await page.waitForFunction(([cls, n]) => document.querySelectorAll(`#messages div.${cls}`).length > n,
      [cls, before], { timeout, polling: 50 });
  } catch {
    fail(`no new div.${cls} in #messages within ${timeout} ms after ${what} (had ${before}: ${JSON.stringify(await messages(page, cls))})`);
  }
  return (await messages(page, cls)).slice(before);
}

// The board as the page draws it: {hole: piece} from g.hole[data-piece].
export const domBoard = (page) => page.$$eval('#board g.hole', (gs) => {
  const b = {};
  for (const g of gs) if (g.dataset.piece) b[g.dataset.hole] = g.dataset.piece;
  return b;
});

// Fails unless the drawn board equals state.board.
export async function checkBoardMatches(page, state, where) {
  const dom = await domBoard(page);
  const want = state.board;
  const diffs = [];
  for (const h of new Set([...Object.keys(dom), ...Object.keys(want)])) {
    if ((dom[h] || null) !== (want[h] || null)) diffs.push(`${h}: page ${dom[h] || '-'} state ${want[h] || '-'}`);
  }
  check(!diffs.length, `${where}: the drawn board differs from state.board (${diffs.length} holes: ${diffs.slice(0, 6).join(', ')})`);
  const n = await page.$$eval('#board g.hole', (gs) => gs.length);
  check(n === 121, `${where}: svg#board has ${n} g.hole, not 121`);
}

// The board is turned for `seat` (a state.seats entry): its home drawn at the
// bottom, its target at the top and marked .target, its foreign points .foreign.
export async function checkTurnedFor(page, seat, where) {
  const info = await page.$$eval('#board g.hole', (gs) => gs.map((g) => {
    const r = g.getBoundingClientRect();
    return { name: g.dataset.hole, y: r.y + r.height / 2, cls: [...g.classList] };
  }));
  const by = new Map(info.map((h) => [h.name, h]));
  const mean = (names) => names.reduce((a, n) => a + by.get(n).y, 0) / names.length;
  const centre = by.get('i9').y;
  const home = mean(seat.home), target = mean(seat.target);
  check(home > centre && target < centre,
    `${where}: the board is not turned for ${seat.colour}: its home is drawn at y ${home.toFixed(0)}, the centre at ${centre.toFixed(0)}, its target at ${target.toFixed(0)} (home should be at the bottom)`);
  const marked = (c) => info.filter((h) => h.cls.includes(c)).map((h) => h.name).sort();
  check(JSON.stringify(marked('target')) === JSON.stringify([...seat.target].sort()),
    `${where}: .target marks ${marked('target').join(' ')}, ${seat.colour}'s target is ${[...seat.target].sort().join(' ')}`);
  check(JSON.stringify(marked('foreign')) === JSON.stringify([...seat.foreign].sort()),
    `${where}: .foreign marks ${marked('foreign').length} holes, ${seat.colour} has ${seat.foreign.length} foreign holes`);
}

// The move list as shown: [{ply, text}].
export const moveList = (page) => page.$$eval('ol#moves li[data-ply]', (lis) =>
  lis.map((li) => ({ ply: Number(li.dataset.ply), text: li.textContent.trim() })));

// Fails unless ol#moves shows exactly state.moves (each li's text holds the move).
export async function checkMoveList(page, state, where) {
  const lis = await moveList(page);
  check(lis.length === state.moves.length,
    `${where}: ol#moves has ${lis.length} li[data-ply], state.moves has ${state.moves.length}`);
  for (let i = 0; i < lis.length; i++) {
    const m = state.moves[i];
    check(lis[i].ply === m.ply, `${where}: li #${i + 1} has data-ply=${lis[i].ply}, expected ${m.ply}`);
    check(lis[i].text.includes(m.text), `${where}: li[data-ply=${m.ply}] reads ${JSON.stringify(lis[i].text)}, expected the move ${m.text}`);
  }
}

const holeSel = (h) => `#board g.hole[data-hole="${h}"]`;
export const holeClasses = (page, h) => page.$eval(holeSel(h), (g) => [...g.classList]).catch(() => null);
export const litHoles = (page) => page.$$eval('#board g.hole.lit', (gs) => gs.map((g) => g.dataset.hole).sort());

// Plays `move` (an entry of state.legal) by clicking its marble, then its end
// hole, lit among all the ends its marble reaches. Where several moves of that
// marble end there (a Masters swap, a capture chain's captured pieces), the
// page then lights each next hop of those moves: click the move's hops, as
// lit, until it is the only one left (the page sends it then), or click the
// hole reached to end the move there. Checks what lights up at each click.
// Resolves with the state after the server took the move.
export async function clickMove(t, page, move, { expectConfirm = false } = {}) {
  const before = await getState(page);
  const from = moveFrom(move), to = moveTo(move);
  // A move that eliminates its mover asks window.confirm first: accept it,
  // unless the test handles the confirm itself.
  const dialogsBefore = page.dialogs.length;
  if (!expectConfirm) page.dialogAction = move.eliminates ? 'accept' : 'dismiss';
  t.step(`click marble ${from} (for ${move.text})`);
  await page.click(holeSel(from), { timeout: 5000 });
  await page.waitForFunction((h) => {
    const g = document.querySelector(`#board g.hole[data-hole="${h}"]`);
    return g && g.classList.contains('selected');
  }, from, { timeout: 3000 }).catch(() => fail(`after clicking ${from} it is not .selected`));
  const own = before.legal.filter((m) => m.path[0] === from);
  const dests = [...new Set(own.map(moveTo))].sort();
  const lit = await litHoles(page);
  check(JSON.stringify(lit) === JSON.stringify(dests),
    `after clicking ${from}: lit holes ${JSON.stringify(lit)} but state.legal reaches ${JSON.stringify(dests)}`);
  t.step(`click lit hole ${to} (the end of ${move.text})`);
  await page.click(holeSel(to), { timeout: 5000 });
  // The moves still in question after each click, as the page narrows them.
  let cands = own.filter((m) => moveTo(m) === to);
  check(cands.some((m) => m.text === move.text), `${move.text} is not among the moves of ${from} in state.legal`);
  const prefix = [from];
  while (cands.length > 1) {
    const n = prefix.length;
    const want = [...new Set(cands.map((m) => (m.path.length > n ? m.path[n] : m.path[n - 1])))].sort();
    const got = await litHoles(page);
    check(JSON.stringify(got) === JSON.stringify(want),
      `${cands.length} moves of ${from} end on ${to} (${cands.map((m) => m.text).join(' ')}), entered ${prefix.join('-')}: lit holes ${JSON.stringify(got)}, expected the next hops ${JSON.stringify(want)}`);
    const hop = move.path.length > n ? move.path[n] : move.path[n - 1];
    t.step(`click next hop ${hop} (for ${move.text}, entered ${prefix.join('-')})`);
    await page.click(holeSel(hop), { timeout: 5000 });
    if (move.path.length === n) break; // ended where the entered path is
    prefix.push(hop);
    cands = cands.filter((m) => m.path.length > n && m.path[n] === hop);
  }
  if (expectConfirm) return before;
  t.step(`wait for the server to take ${move.text}`);
  const after = await waitState(page, (s, n) => s.moves.length > n, before.moves.length,
    `the move ${move.text} to be played (moves > ${before.moves.length})`);
  const asked = page.dialogs.slice(dialogsBefore);
  if (move.eliminates) {
    check(asked.length === 1 && asked[0].type === 'confirm', `the eliminating move ${move.text} asked ${JSON.stringify(asked)}, expected one confirm`);
  } else {
    check(!asked.length, `the move ${move.text} (eliminates: false) opened dialogs ${JSON.stringify(asked)}`);
  }
  return after;
}

// Waits until the shown position has a human to move (legal non-empty) or the game is over.
export function waitHumanTurn(page, what = 'a human turn or the end', timeout = 15000) {
  return waitState(page, (s) => s.over || (s.legal.length > 0 && s.ply === s.shown && !s.thinking), null, what, timeout);
}

// Starts a new game through the New game form.
// seats: array of 'human' | 'engine:K' in turn order.
export async function newGameByForm(t, page, variant, seats, tc = TC) {
  t.step(`new game form: variant ${variant}`);
  await page.evaluate(() => { window.__prevState = window.stern.state; });
  await page.selectOption('select#new-variant', variant, { timeout: 5000 });
  await page.waitForFunction((n) => document.querySelectorAll('#new-seats select[data-seat-index]').length === n,
    seats.length, { timeout: 3000 }).catch(async () => {
    const n = await page.$$eval('#new-seats select[data-seat-index]', (e) => e.length);
    fail(`#new-seats shows ${n} select[data-seat-index] for ${variant}, expected ${seats.length}`);
  });
  for (let i = 0; i < seats.length; i++) {
    t.step(`new game form: seat ${i} = ${seats[i]}`);
    await page.selectOption(`#new-seats select[data-seat-index="${i}"]`, seats[i], { timeout: 3000 });
  }
  t.step(`new game form: time control ${tc}`);
  await page.fill('input#new-tc', tc);
  t.step('click #new-game');
  await page.click('button#new-game');
  const want = seats.map((s) => (s === 'human' ? 'human' : 'engine'));
  const s = await waitState(page, (s, want) => s !== window.__prevState && s.variant === want.variant
    && s.ply === 0 && s.mode === 'play' && s.seats.length === want.players.length
    && s.seats.every((x, i) => x.player === want.players[i]),
  { variant, players: want }, `the new ${variant} game (${seats.join(', ')})`);
  return s;
}

// Wraps window.stern.link.send (the page's way to the table, a WebSocket or
// the static site's worker) so the test can see what the page sends.
export async function recordSends(page) {
  await page.evaluate(() => {
    window.__sent = [];
    const link = window.stern.link;
    if (link.__wrapped) return;
    const orig = link.send;
    link.send = (m) => { window.__sent.push(String(m)); return orig(m); };
    link.__wrapped = true;
  });
}
export const sentMessages = (page) => page.evaluate(() => (window.__sent || []).map((m) => {
  try { return JSON.parse(m); } catch { return { unparsed: m }; }
}));

export const wsSend = (page, text) => page.evaluate((text) => window.stern.link.send(text), text);

export function stateCore(s) {
  return JSON.stringify({ fen: s.fen, ply: s.ply, shown: s.shown, stm: s.stm, over: s.over, board: s.board,
    moves: s.moves.map((m) => m.text), seats: s.seats.map((x) => [x.seat, x.player, x.status, x.place]) });
}
