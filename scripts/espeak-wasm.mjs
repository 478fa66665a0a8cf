#!/usr/bin/env node
// eSpeak NG compiled to WebAssembly (the `espeak-ng` npm package, GPL-3.0-or-later), as a program of its
// own: `node scripts/espeak-wasm.mjs -v <voice> -s <words a minute> -w <out.wav> -f <text file>`, the same
// arguments as Debian's espeak-ng. The renderer runs it as a separate process, exactly as it runs the
// Debian binary, so the GPL engine never loads into the app's own process.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const args = process.argv.slice(2);
const option = (flag) => {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
};
const [voice, speed, out, textFile] = [option("-v"), option("-s"), option("-w"), option("-f")];
if (!voice || !speed || !out || !textFile) {
  console.error("usage: espeak-wasm.mjs -v <voice> -s <wpm> -w <out.wav> -f <text file>");
  process.exit(2);
}

const entry = createRequire(import.meta.url).resolve("espeak-ng");
const { default: factory } = await import(entry);
const wasm = await WebAssembly.compile(fs.readFileSync(path.join(path.dirname(entry), "espeak-ng.wasm")));
const errors = [];
const instance = await factory({
  arguments: ["-v", voice, "-s", speed, "-w", "/out.wav", fs.readFileSync(textFile, "utf8")],
  print: () => {},
  printErr: (line) => errors.push(line),
  instantiateWasm(imports, done) {
    WebAssembly.instantiate(wasm, imports).then((compiled) => done(compiled, wasm));
    return {};
  },
});
try {
  fs.writeFileSync(out, instance.FS.readFile("/out.wav"));
} catch {
  console.error(`eSpeak NG (WebAssembly) wrote no audio. ${errors.join(" ")}`);
  process.exit(1);
}
