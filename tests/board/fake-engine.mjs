#!/usr/bin/env node
// A misbehaving engine for the table's tests: it runs build/stern as a child
// and relays every line both ways, until the Nth `go` it receives (default 3).
//
//   node tests/board/fake-engine.mjs crash MARKER [N]
//       on the Nth go: exits at once with status 3, without answering
//   node tests/board/fake-engine.mjs hang MARKER [N]
//       on the Nth go: stops answering anything (stays alive until killed or
//       until its stdin closes)
//
// MARKER is a file: the misbehaviour happens only while it does not exist, and
// creating it is the first thing the fake does when it misbehaves. So the
// engine the server restarts afterwards (same command line) behaves, and the
// test can tell that the failure really happened.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const [mode, marker, nArg] = process.argv.slice(2);
if (!['crash', 'hang'].includes(mode) || !marker) {
  process.stderr.write('usage: fake-engine.mjs crash|hang MARKER [N]\n');
  process.exit(2);
}
const nth = Number(nArg || 3);
const here = dirname(fileURLToPath(import.meta.url));
const stern = process.env.STERN_ENGINE || join(here, '..', '..', 'build', 'stern');
const armed = !existsSync(marker);

let gos = 0;
let silent = false;

const child = spawn(stern, [], { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code) => { if (!silent) process.exit(code ?? 1); });
child.stdin.on('error', () => {});

createInterface({ input: child.stdout }).on('line', (line) => {
  if (!silent) process.stdout.write(line + '\n');
});

createInterface({ input: process.stdin }).on('line', (line) => {
  if (silent) return;
  if (/^\s*go(\s|$)/.test(line)) {
    gos += 1;
    if (armed && gos === nth) {
      writeFileSync(marker, `${mode} on go #${gos} (pid ${process.pid}): ${line}\n`);
      if (mode === 'crash') {
        child.kill('SIGKILL');
        process.exit(3);
      }
      silent = true;           // hang: swallow this go and everything after it
      child.kill('SIGKILL');
      return;
    }
  }
  child.stdin.write(line + '\n');
}).on('close', () => {
  child.stdin.end();
  if (silent) process.exit(0);
});

process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(143); });
