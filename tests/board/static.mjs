// The board as a static site only (BOARD_STATIC; docs/WEB.md): the page
// talks to no server but the file server, and its engine is the WebAssembly
// build its isolation allows: stern-mt (threads, one a core) in a
// cross-origin isolated page, stern-st (one thread) elsewhere.
import { STATIC, check, sternEngine, openTable, newGameByForm, waitState } from './lib.mjs';

const staticSite = {
  name: 'static-site',
  staticOnly: true,
  timeout: 30000,
  async run(t) {
    const srv = await t.server([sternEngine()]);
    const page = await openTable(t, srv.url);
    const paths = [];
    page.on('request', (r) => paths.push(new URL(r.url()).pathname));
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    t.step('the page is as isolated as its server makes it, its table a worker');
    const isolated = await page.evaluate(() => window.crossOriginIsolated === true);
    check(isolated === (STATIC === 'isolated'), `crossOriginIsolated is ${isolated} under BOARD_STATIC=${STATIC}`);
    check(await page.evaluate(() => !window.stern.link.ws), 'the page opened a WebSocket to the table');
    await newGameByForm(t, page, 'classic-2', ['engine:0', 'engine:0']);
    t.step('the engines play four plies');
    await waitState(page, (s) => s.ply >= 4, null, 'four plies by the engines', 20000);
    const want = isolated ? '/stern-mt.wasm' : '/stern-st.wasm';
    const other = isolated ? '/stern-st.wasm' : '/stern-mt.wasm';
    check(paths.includes(want), `the engine's ${want} was not fetched (fetched: ${paths.join(' ')})`);
    check(!paths.includes(other), `the page fetched ${other} too`);
    check(!sockets.length, `the page opened WebSockets: ${sockets.join(' ')}`);
    t.step("the engine's Threads: the cores in an isolated page, else left at 1");
    const table = page.workers().find((w) => w.url().endsWith('/table-worker.js'));
    check(table, `no table worker among ${page.workers().map((w) => w.url()).join(' ')}`);
    const sent = await table.evaluate(() => [...self.sternEngines.sentBySlot.values()].flat());
    const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
    const threads = sent.filter((l) => /^setoption name Threads /.test(l));
    const wantThreads = isolated && cores > 1 ? [`setoption name Threads value ${cores}`] : [];
    check(JSON.stringify(threads) === JSON.stringify(wantThreads),
      `Threads lines sent ${JSON.stringify(threads)}, expected ${JSON.stringify(wantThreads)} (${cores} cores)`);
  },
};

export default [staticSite];
