// serve.mjs - starts tools/web/serve.py on a free port for the WebAssembly
// tests (browser.mjs, speed.mjs): serve(dir, isolated) resolves with
// {proc, url} once it listens; kill proc to end it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function serve(dir, isolated) {
  return new Promise((res, rej) => {
    const p = spawn('python3', [join(ROOT, 'tools/web/serve.py'), '--port', '0', ...(isolated ? ['--isolated'] : []),
      dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: p.stdout }).once('line', (l) => res({ proc: p, url: `http://127.0.0.1:${l.trim()}` }));
    p.once('exit', (c) => rej(new Error(`serve.py exited ${c}`)));
  });
}
