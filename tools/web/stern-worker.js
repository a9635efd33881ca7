// stern-worker.js - Stern for a web page (docs/WEB.md), as stockfish.js is for
// chess GUIs:
//
//   const engine = new Worker('stern/stern-worker.js');
//   engine.onmessage = (e) => console.log(e.data);   // one engine line a message
//   engine.postMessage('uci');                        // one protocol line a message
//
// In a cross-origin isolated page (COOP/COEP headers) the engine runs here with
// threads (stern-mt: `setoption name Threads`); elsewhere the one-thread build
// runs in a worker of its own (stern-st), and this worker keeps the protocol's
// promises the one thread cannot: `stop` ends the search at once (the engine's
// worker is ended and started again with the options and position it had, and
// the answer is the first move of the last line it reported), `isready` is
// answered during a search, `ponderhit` starts the search anew without ponder,
// and other lines wait for the answer. Which of the two runs is said in an
// `info string` line before `uciok`.
'use strict';

self.sternFacade = true;
const here = self.location.href.replace(/[?#].*$/, '').replace(/[^/]*$/, '');
importScripts(here + 'stern-host.js');

const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
const mode = isolated
  ? `info string web: WebAssembly with threads (the page is cross-origin isolated; ${navigator.hardwareConcurrency || 1} cores)`
  : 'info string web: WebAssembly on one thread (the page is not cross-origin isolated: no COOP/COEP headers)';
let said = false;

function out(line) {
  if (!said && line === 'uciok') {
    said = true;
    self.postMessage(mode);
  }
  self.postMessage(line);
}

const words = (line) => String(line).trim().split(/\s+/);

if (isolated) {
  const h = self.sternHost('stern-mt', out);
  self.onmessage = (e) => h.command(e.data);
} else {
  let engine = null;
  let replaying = false;  // swallowing the replayed lines' output until readyok
  let searching = false;  // a go was sent and its bestmove has not come
  let pondering = null;   // the go ponder being searched (its words), else null
  let lastPv = null;      // the moves of the last first line the search reported
  const options = new Map(); // setoption lines by option name, in order
  let position = null;    // the last position line
  const waiting = [];     // lines that arrived during a search

  function fromEngine(line) {
    if (replaying) {
      if (line === 'readyok') {
        replaying = false;
        if (pondering) { // ponderhit: the same go, not pondering
          const go = pondering.filter((w) => w !== 'ponder').join(' ');
          pondering = null;
          engine.postMessage(go);
        } else if (searching) { // stopped before any line: a one-ply search answers
          engine.postMessage('go depth 1');
        } else {
          drain();
        }
      }
      return;
    }
    if (line.startsWith('info ') && line.includes(' pv ') && !/ multipv (?!1 )\d+/.test(line))
      lastPv = line.slice(line.indexOf(' pv ') + 4).trim().split(/\s+/);
    out(line);
    if (line.startsWith('bestmove')) {
      searching = false;
      pondering = null;
      drain();
    }
  }

  function start() {
    engine = new Worker(here + 'stern-host.js?build=stern-st');
    engine.onmessage = (e) => fromEngine(e.data);
  }

  // Ends the engine's worker and starts another with the options and position it had.
  function restart() {
    engine.terminate();
    start();
    replaying = true;
    for (const l of options.values()) engine.postMessage(l);
    if (position) engine.postMessage(position);
    engine.postMessage('isready');
  }

  function drain() {
    while (!searching && !replaying && waiting.length) command(waiting.shift());
  }

  function command(line) {
    const w = words(line);
    if (searching || replaying) {
      if (w[0] === 'isready') {
        out('readyok');
      } else if (w[0] === 'stop' && searching && !replaying) {
        if (lastPv && lastPv.length) {
          out('bestmove ' + lastPv[0] + (lastPv[1] ? ' ponder ' + lastPv[1] : ''));
          searching = false;
          restart();
        } else {
          pondering = null;
          restart(); // then go depth 1 answers
        }
      } else if (w[0] === 'ponderhit' && pondering && !replaying) {
        restart(); // then the go without ponder
      } else if (w[0] === 'quit') {
        engine.terminate();
        self.close();
      } else {
        waiting.push(line);
      }
      return;
    }
    if (w[0] === 'go') {
      searching = true;
      lastPv = null;
      pondering = w.includes('ponder') ? w : null;
    } else if (w[0] === 'setoption' && w.length >= 3 && w[1] === 'name') {
      const v = w.indexOf('value');
      options.set(w.slice(2, v < 0 ? w.length : v).join(' ').toLowerCase(), line);
      if (/^variant$/i.test(w.slice(2, v < 0 ? w.length : v).join(' '))) position = null;
    } else if (w[0] === 'position') {
      position = line;
    }
    engine.postMessage(line);
    if (w[0] === 'quit') {
      setTimeout(() => { engine.terminate(); self.close(); }, 100);
    }
  }

  start();
  self.onmessage = (e) => command(e.data);
}
