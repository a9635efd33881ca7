#!/usr/bin/env node
// stern-node.js [--st] [ENGINE ARGUMENTS] - the WebAssembly engine under node, speaking the
// protocol on stdin and stdout as the native engine does (docs/WEB.md): for
// the tests that compare it with the native engine, and for matches
// (stern-arena cmd="node build/web/stern-node.js"). --st runs the one-thread
// build. The shipped nets and books are read from this folder's nets/ and
// book/ as a page fetches them. The end of stdin is the end of its input
// (stern_input_end), as natively.
'use strict';
const fs = require('fs');
const path = require('path');

const dir = __dirname;
const build = process.argv.includes('--st') ? 'stern-st' : 'stern-mt';
const SternEngine = require(path.join(dir, build + '.js'));
const { inputBytes } = require(path.join(dir, 'stern-host.js'));

SternEngine({
  arguments: process.argv.slice(2).filter((a) => a !== '--st'), // the engine's own: --ccp, --option
  // the binary read here: emscripten 3.1.6 would fetch() it, which node 18+ has but cannot for a path
  wasmBinary: fs.readFileSync(path.join(dir, build + '.wasm')),
  locateFile: (f) => path.join(dir, f),
  print: (line) => process.stdout.write(line + '\n'),
  printErr: (line) => process.stderr.write(line + '\n'),
  preRun: [(m) => {
    // the shipped files where the engine looks for them (protocol/shipped.h)
    for (const sub of ['nets', 'book']) {
      const from = path.join(dir, sub);
      if (!fs.existsSync(from)) continue;
      m.FS.mkdirTree('/stern/' + sub);
      for (const f of fs.readdirSync(from))
        m.FS.writeFile('/stern/' + sub + '/' + f, fs.readFileSync(path.join(from, f)));
    }
  }],
  onRuntimeInitialized() { this.sternBuffer = this._malloc(65536); },
}).then((m) => {
  // stdin's bytes as they come, the engine cutting the lines as natively
  process.stdin.on('data', (chunk) => inputBytes(m, chunk));
  process.stdin.on('end', () => m._stern_input_end());
});
