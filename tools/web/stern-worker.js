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
// answered during a search, `go ponder` waits for `ponderhit` to search, and
// other lines wait for the answer. Which of the two runs is said in an
// `info string` line before `uciok`. A message holding '\n' is several lines.
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
// the lines of one message: split at newlines, the empty piece after a final one dropped
const linesOf = (data) => String(data).replace(/\r?\n$/, '').split(/\r?\n/);

if (isolated) {
  const h = self.sternHost('stern-mt', out);
  self.onmessage = (e) => linesOf(e.data).forEach((l) => h.command(l));
} else {
  let engine = null;
  let replaying = false;  // swallowing the replayed lines' output until readyok
  let searching = false;  // a go was sent (or is held) and its bestmove has not come
  let endless = false;    // that go ends only by stop (infinite)
  let held = null;        // a go ponder not sent: its words, sent without ponder at ponderhit
  let answerAfterReplay = false; // stopped before any line: a one-ply search answers after the replay
  let lastPv = null;      // the moves of the last first line the search reported
  const options = new Map(); // setoption lines by option name, in order
  let position = null;    // the last position line
  const waiting = [];     // lines that arrived during a search

  function fromEngine(line) {
    if (replaying) {
      if (line === 'readyok') {
        replaying = false;
        if (answerAfterReplay) {
          answerAfterReplay = false;
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
    // a bestmove ends the search; a go refused whole (PROTOCOL.md) ends it too
    if (line.startsWith('bestmove') || (searching && !lastPv && line.startsWith('info string error line refused'))) {
      searching = false;
      drain();
    }
  }

  function start() {
    const me = new Worker(here + 'stern-host.js?build=stern-st');
    me.onmessage = (e) => { if (me === engine) fromEngine(e.data); }; // not an ended worker's
    engine = me;
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

  // Answers a stop: the held ponder by a one-ply search, a running search by
  // the first move of its last line (then the engine is started again), or,
  // with no line yet, by a one-ply search after the restart.
  function stop() {
    if (held) {
      held = null;
      engine.postMessage('go depth 1');
    } else if (lastPv && lastPv.length) {
      out('bestmove ' + lastPv[0] + (lastPv[1] ? ' ponder ' + lastPv[1] : ''));
      searching = false;
      restart();
    } else {
      answerAfterReplay = true;
      restart();
    }
  }

  function command(line) {
    const w = words(line);
    if (searching || replaying) {
      if (w[0] === 'isready') {
        out('readyok');
      } else if (w[0] === 'stop' && searching && !replaying && !answerAfterReplay) {
        stop();
      } else if (w[0] === 'ponderhit' && held) {
        engine.postMessage(held.filter((x) => x !== 'ponder').join(' '));
        held = null;
      } else if (w[0] === 'quit' && searching && (endless || held) && !replaying) {
        stop(); // quit stops what would not end by itself, then quits in its turn
        waiting.push(line);
      } else {
        waiting.push(line);
      }
      return;
    }
    if (w[0] === 'go') {
      searching = true;
      lastPv = null;
      endless = w.includes('infinite');
      if (w.includes('ponder')) {
        held = w; // one thread cannot be told ponderhit during a search: it searches after it
        return;
      }
    } else if (w[0] === 'setoption' && w.length >= 3 && w[1] === 'name') {
      const v = w.indexOf('value');
      const name = w.slice(2, v < 0 ? w.length : v).join(' ').toLowerCase();
      options.set(name, line);
      if (name === 'variant') position = null;
    } else if (w[0] === 'position') {
      position = line;
    } else if (w[0] === 'ucinewgame') {
      position = null; // the game starts again (PROTOCOL.md)
    }
    engine.postMessage(line);
    if (w[0] === 'quit') {
      setTimeout(() => { engine.terminate(); self.close(); }, 100);
    }
  }

  start();
  self.onmessage = (e) => linesOf(e.data).forEach(command);
}
