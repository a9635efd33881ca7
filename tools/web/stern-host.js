// stern-host.js - runs one WebAssembly build of the engine in the worker that
// loads it (docs/WEB.md): each message posted to the worker is a protocol line
// for the engine, each line the engine writes is posted back as a string.
// Used by stern-worker.js, as its own code (threads: a cross-origin isolated
// page) or in a worker of its own (one thread). Before a line that sets the
// variant reaches the engine, the variant's shipped net and book (files.json
// lists them) are fetched to /stern/nets and /stern/book, where the engine
// looks (protocol/shipped.h): a page loads only the variants it plays.
'use strict';

/* global SternEngine, importScripts */
(function (scope) {
  const here = scope.location ? scope.location.href.replace(/[?#].*$/, '').replace(/[^/]*$/, '') : '';

  // Hands bytes (lines ending in '\n', or parts of them) to the engine
  // through a 64 KiB buffer of its memory taken once at its start: the engine
  // cuts and checks the lines (a line with a NUL byte is refused whole, as
  // natively). Not ccall: while the one-thread build sleeps (Asyncify), ccall
  // keeps what it put on the stack until the sleep ends, and a long line
  // overflowed the stack. The buffer, taken before the memory first grows,
  // stays inside even a stale view of the threads' shared memory; the
  // one-thread build's HEAPU8 is renewed when its memory grows.
  function inputBytes(engine, bytes) {
    for (let at = 0; at < bytes.length; at += 65536) {
      const part = bytes.subarray(at, Math.min(bytes.length, at + 65536));
      engine.HEAPU8.set(part, engine.sternBuffer);
      engine._stern_input(engine.sternBuffer, part.length);
    }
  }

  // Starts build `name` ('stern-mt' or 'stern-st'); `post(line)` receives the
  // engine's lines. Returns {command(line)}: lines are handed on in order,
  // each after the files it needs; a message holding '\n' is several lines.
  function host(name, post) {
    let queue = Promise.resolve();
    let engine = null;
    const fetched = new Set();
    let manifest = null;

    async function files() {
      if (!manifest) {
        const r = await fetch(here + 'files.json');
        manifest = r.ok ? await r.json() : { nets: [], book: [] };
      }
      return manifest;
    }

    // The variant's net, its seat count's classic net (the engine plays that
    // one only where it serves the variant: protocol/evalfile.c) and book.
    async function fetchVariant(variant) {
      const m = await files();
      const seats = (variant.match(/-(\d)$/) || [])[1];
      const want = [['nets', variant, '.nnue'], ['nets', 'classic-' + seats, '.nnue'], ['book', variant, '.bin']];
      for (const [dir, base, ext] of want) {
        const key = dir + '/' + base + ext;
        if (fetched.has(key) || !(m[dir] || []).includes(base)) continue;
        fetched.add(key);
        try {
          const r = await fetch(here + key);
          if (!r.ok) throw new Error('HTTP ' + r.status);
          const bytes = new Uint8Array(await r.arrayBuffer());
          engine.FS.mkdirTree('/stern/' + dir);
          engine.FS.writeFile('/stern/' + key, bytes);
        } catch (e) {
          fetched.delete(key); // asked again the next time the variant is chosen
          post('info string error cannot fetch ' + key + ': ' + e.message + '; the engine plays without it');
        }
      }
    }

    const started = (async () => {
      importScripts(here + name + '.js');
      engine = await SternEngine({
        onRuntimeInitialized() { this.sternBuffer = this._malloc(65536); },
        locateFile: (f) => here + f,
        mainScriptUrlOrBlob: here + name + '.js',
        print: (line) => post(line),
        printErr: (line) => post('info string ' + line),
      });
      await fetchVariant('classic-2'); // the engine's first variant
    })();
    queue = started;

    function command(line) {
      const text = String(line);
      const v = /^\s*setoption\s+name\s+variant\s+value\s+(\S+)\s*$/i.exec(text);
      queue = queue.then(async () => {
        if (v) await fetchVariant(v[1].toLowerCase()); // the engine takes any case
        inputBytes(engine, new TextEncoder().encode(text + '\n'));
      }).catch((e) => post('info string error ' + e));
    }
    return { command, started };
  }

  scope.sternHost = host;
  if (typeof module === 'object' && module.exports) module.exports = { inputBytes }; // stern-node.js

  // Loaded as a worker of its own (stern-worker.js's one-thread engine): the
  // build named in the URL (?stern-st), lines in and out as messages.
  const own = /[?&]build=(stern-(?:mt|st))/.exec((scope.location && scope.location.search) || '');
  if (own && typeof scope.postMessage === 'function' && !scope.sternFacade) {
    const h = host(own[1], (line) => scope.postMessage(line));
    scope.onmessage = (e) => h.command(e.data);
  }
})(typeof self !== 'undefined' ? self : globalThis);
