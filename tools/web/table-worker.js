// table-worker.js - the table of the board as a static site (docs/WEB.md):
// stern-board's table (tools/board/board_table.c) built as WebAssembly
// (stern-table.wasm, tools/web/table_web.c) runs in this worker of the page.
// The page posts the JSON texts it would send over stern-board's WebSocket
// (docs/BOARD.md) and receives the table's, one text a message. The table's
// engines are workers of their own (stern-worker.js, the engine's message
// API), started, fed and ended here for tools/web/engine_worker.c.
'use strict';

/* global SternTable, importScripts */
const here = self.location.href.replace(/[?#].*$/, '').replace(/[^/]*$/, '');
importScripts(here + 'stern-table.js');

const TICK_MS = 10; // the table's clockwork runs this often when nothing else waits

// The engines: slot -> {worker, lines (not yet read by the table), alive,
// sent (the last lines sent to it, for the tests)}.
const engines = new Map();
self.sternEngines = {
  start(slot, cmd) {
    let worker;
    try {
      worker = new Worker(here + cmd);
    } catch (e) {
      return -1;
    }
    const e = { worker, lines: [], alive: true, sent: [] };
    self.sternEngines.sentBySlot.set(slot, e.sent);
    worker.onmessage = (ev) => e.lines.push(...String(ev.data).replace(/\r?\n$/, '').split(/\r?\n/));
    worker.onerror = (ev) => { // the engine failed (its WebAssembly aborted): the table sees it end
      e.alive = false;
      ev.preventDefault();
    };
    engines.set(slot, e);
    return 0;
  },
  send(slot, text) {
    const e = engines.get(slot);
    if (!e || !e.alive) return;
    e.worker.postMessage(text);
    e.sent.push(text);
    if (e.sent.length > 50) e.sent.shift();
  },
  peek(slot) { // the next line, left in the queue until drop
    const e = engines.get(slot);
    return e && e.lines.length ? e.lines[0] : null;
  },
  drop(slot) {
    const e = engines.get(slot);
    if (e) e.lines.shift();
  },
  alive(slot) {
    const e = engines.get(slot);
    return !!(e && e.alive);
  },
  kill(slot) {
    const e = engines.get(slot);
    if (!e) return;
    e.worker.terminate();
    e.alive = false;
    engines.delete(slot);
  },
  killAll() {
    for (const slot of [...engines.keys()]) this.kill(slot);
  },
  sentBySlot: new Map(), // slot -> the last lines sent to that engine
};

self.sternTablePost = (json) => self.postMessage(json);

// Calls into the table one at a time: a call may sleep (Asyncify) while an
// engine answers, and no other may enter meanwhile. The page's messages
// wait in order; a tick is queued only when nothing else waits.
let table = null;
const jobs = [];
let running = false;
let failed = false; // the table did not start

async function call(fn, text) {
  if (text === undefined) return table.ccall(fn, 'number', [], [], { async: true });
  const n = table.lengthBytesUTF8(text) + 1;
  const p = table._malloc(n); // not ccall's 'string': a long PGN would not fit its stack
  if (!p) {
    self.postMessage(JSON.stringify({ type: 'error', message: 'the table is out of memory' }));
    return null;
  }
  table.stringToUTF8(text, p, n);
  try {
    return await table.ccall(fn, null, ['number'], [p], { async: true });
  } finally {
    table._free(p);
  }
}

async function pump() {
  if (running || !table || failed) return;
  running = true;
  while (jobs.length) {
    const [fn, text] = jobs.shift();
    try {
      const rc = await call(fn, text);
      if (fn === 'table_web_start' && rc !== 0) {
        self.postMessage(JSON.stringify({ type: 'error', message: 'the table cannot start: out of memory' }));
        failed = true; // nothing more is called
        running = false;
        return;
      }
    } catch (e) {
      self.postMessage(JSON.stringify({ type: 'error', message: 'the table failed: ' + e }));
    }
  }
  running = false;
}

self.onmessage = (ev) => {
  if (failed) {
    self.postMessage(JSON.stringify({ type: 'error', message: 'the table did not start: reload the page' }));
    return;
  }
  jobs.push(['table_web_message', String(ev.data)]);
  pump();
};

SternTable({ locateFile: (f) => here + f }).then((t) => {
  jobs.unshift(['table_web_start']);
  table = t;
  pump();
  setInterval(() => {
    if (!running && !failed && !jobs.length) {
      jobs.push(['table_web_tick']);
      pump();
    }
  }, TICK_MS);
}, (e) => {
  failed = true;
  self.postMessage(JSON.stringify({ type: 'error', message: `the table cannot start: ${e}` }));
});
