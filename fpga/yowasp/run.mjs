// fpga/yowasp/run.mjs: runs one YoWASP tool (Yosys or nextpnr-ice40 built for
// WebAssembly, installed by fpga/yowasp/install.sh) as if it were the native command.
//
//   node run.mjs TOOL [--in PATH]... [--out DIR]... -- ARGS...
//
// TOOL is `yosys`, `nextpnr-ice40` or `icepack`.  The tools see a virtual file tree,
// not the host's, so each --in file or directory is copied into that tree at its own
// absolute path, and each --out directory is made there, empty: ARGS keep the host
// paths fpga/build.sh gives the native tools.  After the run, what the tool wrote
// under an --out directory is written to the host (logs, netlists, reports), also
// when it failed (its log says why).  Outputs start empty so that a large old file
// there (a previous placement) is not copied in for nothing.  The tool's stdout and
// stderr pass through, and its exit status is ours.
// Node's own module resolution finds the packages in the build tree's node_modules,
// so this file stays in the source tree and the install stays out of it
// (UMBRA_YOWASP_DIR, default build-fpga/yowasp next to the source root).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const installDir = process.env.UMBRA_YOWASP_DIR || path.join(root, "build-fpga", "yowasp");

function die(msg) {
  process.stderr.write(`run.mjs: error: ${msg}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const tool = argv.shift();
const packages = {
  yosys: ["@yowasp/yosys", "runYosys"],
  "nextpnr-ice40": ["@yowasp/nextpnr-ice40", "runNextpnrIce40"],
  icepack: ["@yowasp/nextpnr-ice40", "runIcepack"],
};
if (!packages[tool]) die(`unknown tool '${tool ?? ""}' (yosys, nextpnr-ice40, icepack)`);
const inputs = [];
const outputs = [];
while (argv.length && argv[0] !== "--") {
  const opt = argv.shift();
  const p = argv.shift();
  if ((opt !== "--in" && opt !== "--out") || !p) die(`expected --in PATH, --out DIR or --, got '${opt}'`);
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st || (opt === "--out" && !st.isDirectory()))
    die(`${opt} '${p}' is not ${opt === "--out" ? "a directory" : "a file or directory"}`);
  (opt === "--in" ? inputs : outputs).push(path.resolve(p));
}
if (argv.shift() !== "--") die("missing '--' before the tool's arguments");

// The package, resolved from the install directory's node_modules.
const require = createRequire(path.join(installDir, "package.json"));
let entry;
try {
  entry = require.resolve(packages[tool][0]);
} catch {
  die(`${packages[tool][0]} is not installed in ${installDir} (run fpga/yowasp/install.sh)`);
}
const mod = await import(pathToFileURL(entry).href);
const run = mod[packages[tool][1]];

// Host directory -> tree (Uint8Array leaves), and the tree node at an absolute path.
function readDir(dir) {
  const tree = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tree[e.name] = readDir(p);
    else if (e.isFile()) tree[e.name] = new Uint8Array(fs.readFileSync(p));
  }
  return tree;
}
function nodeAt(tree, abs) {
  let t = tree;
  for (const part of abs.split(path.sep).filter(Boolean)) {
    if (!(part in t)) t[part] = {};
    t = t[part];
  }
  return t;
}
const files = {};
for (const p of inputs) {
  if (fs.statSync(p).isDirectory()) Object.assign(nodeAt(files, p), readDir(p));
  else nodeAt(files, path.dirname(p))[path.basename(p)] = new Uint8Array(fs.readFileSync(p));
}
for (const dir of outputs) nodeAt(files, dir);

function writeBack(out) {
  for (const dir of outputs) {
    (function write(t, p) {
      for (const [k, v] of Object.entries(t)) {
        const hp = path.join(p, k);
        if (typeof v === "string" || v instanceof Uint8Array) {
          fs.writeFileSync(hp, v);
        } else {
          fs.mkdirSync(hp, { recursive: true });
          write(v, hp);
        }
      }
    })(nodeAt(out, dir), dir);
  }
}

const passthrough = (stream) => (bytes) => {
  if (bytes) stream.write(bytes);
};
try {
  const out = await run(argv, files, {
    stdout: passthrough(process.stdout),
    stderr: passthrough(process.stderr),
    decodeASCII: false,
  });
  writeBack(out);
} catch (e) {
  if (e && typeof e.code === "number" && e.files) {
    writeBack(e.files);
    process.exitCode = e.code;
  } else {
    throw e;
  }
}
