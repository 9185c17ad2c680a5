// MiniZinc 2.10 as WebAssembly (the npm package `minizinc`), run by node as the `minizinc`
// command is run, for machines whose own MiniZinc is older (Debian's is 2.6.4).
//
//   node scripts/minizinc-wasm.cjs ARGS...          one run, as `minizinc ARGS...`
//   node scripts/minizinc-wasm.cjs --batch FILE     one run per line of FILE, each a JSON list
//                                                   of arguments; one JSON line per run on
//                                                   stdout: {"code", "stdout", "stderr"}
//
// The package is looked for in $CSP_MINIZINC_NPM, then target/tools/npm (where .ci/run puts
// it: `npm install --prefix target/tools/npm minizinc@4.5.1`). MiniZinc runs in a file system
// of its own: each file named in the arguments is copied in by its base name, with the .mzn
// files beside it (a model's includes); a folder (`-I DIR`, a solver's library) is copied in
// whole; the files named after --fzn, --ozn and -o are copied back out. One batch loads the
// WebAssembly once (about a second), so a run after the first costs only its compilation.
'use strict';
const fs = require('fs');
const path = require('path');

function packageDir() {
  const candidates = [
    process.env.CSP_MINIZINC_NPM,
    path.join(__dirname, '..', 'target', 'tools', 'npm'),
  ].filter(Boolean);
  for (const dir of candidates) {
    const dist = path.join(dir, 'node_modules', 'minizinc', 'dist');
    if (fs.existsSync(path.join(dist, 'minizinc.wasm'))) return dist;
  }
  process.stderr.write(`minizinc-wasm: no npm package minizinc in ${candidates.join(' or ')}\n`);
  process.exit(127);
}

// The package's worker, run in this process: it answers messages through postMessage.
let onMessage;
let waiting;
globalThis.addEventListener = (type, handler) => {
  if (type === 'message') onMessage = handler;
};
globalThis.postMessage = (message) => {
  if (message.type === 'ready' || message.type === 'exit') {
    const resolve = waiting;
    waiting = undefined;
    if (resolve) resolve(message);
  }
};

function send(data) {
  return new Promise((resolve) => {
    waiting = resolve;
    onMessage({ data });
  });
}

async function start() {
  const dist = packageDir();
  const worker = fs.readFileSync(path.join(dist, 'minizinc-worker.js'), 'utf8');
  new Function('require', '__filename', '__dirname', worker)(
    require, path.join(dist, 'minizinc-worker.js'), dist);
  await send({
    wasmURL: path.join(dist, 'minizinc.wasm'),
    dataURL: path.join(dist, 'minizinc.data'),
  });
}

function addFolder(files, dir, under) {
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) addFolder(files, full, `${under}/${name}`);
    else files[`${under}/${name}`] = fs.readFileSync(full, 'utf8');
  }
}

// One run: the arguments rewritten to names inside MiniZinc's file system.
async function run(args) {
  const files = {};
  const outputs = {};
  const inner = args.map((arg, k) => {
    const previous = args[k - 1];
    if (previous === '--fzn' || previous === '--ozn' || previous === '-o'
        || previous === '--output-to-file') {
      outputs[path.basename(arg)] = arg;
      return path.basename(arg);
    }
    if (!fs.existsSync(arg)) return arg;
    if (fs.statSync(arg).isDirectory()) {
      addFolder(files, arg, path.basename(arg));
      return path.basename(arg);
    }
    for (const name of fs.readdirSync(path.dirname(arg))) {
      if (name.endsWith('.mzn')) {
        files[name] = fs.readFileSync(path.join(path.dirname(arg), name), 'utf8');
      }
    }
    files[path.basename(arg)] = fs.readFileSync(arg, 'utf8');
    return path.basename(arg);
  });
  const result = await send({ files, args: inner, outputFiles: Object.keys(outputs) });
  for (const [name, text] of Object.entries(result.outputFiles || {})) {
    if (text !== null) fs.writeFileSync(outputs[name], text);
  }
  return { code: result.code, stdout: result.stdout || '', stderr: result.stderr || '' };
}

async function main() {
  const args = process.argv.slice(2);
  await start();
  if (args[0] === '--batch') {
    const lines = fs.readFileSync(args[1], 'utf8').split('\n').filter((l) => l.trim());
    for (const line of lines) {
      process.stdout.write(JSON.stringify(await run(JSON.parse(line))) + '\n');
    }
    return 0;
  }
  const result = await run(args);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.code;
}

main().then((code) => process.exit(code), (e) => {
  process.stderr.write(`minizinc-wasm: ${e.stack || e}\n`);
  process.exit(1);
});
