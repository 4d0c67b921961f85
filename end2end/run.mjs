// Starts the real release server on a fresh SQLite data directory, runs the browser tests
// against it with node's test runner, and stops it. Screenshots go to end2end/artifacts/.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const bin = join(root, "target/release/space-baduk");
const siteRoot = join(root, "target/site");
if (!existsSync(bin) || !existsSync(join(siteRoot, "pkg"))) {
  console.error(`missing ${bin} or ${siteRoot}/pkg: run \`cargo leptos build --release\` first (make test does)`);
  process.exit(1);
}
mkdirSync(join(here, "artifacts"), { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), "space-baduk-e2e-"));
const port = 3100 + Math.floor(Math.random() * 800);
const base = `http://127.0.0.1:${port}`;

const server = spawn(bin, ["--port", String(port), "--data-dir", dataDir, "--site-root", siteRoot, "--log", "warn"],
  { stdio: ["ignore", "pipe", "inherit"] });
let out = "";
server.stdout.on("data", (d) => { out += d; });
const stopServer = () => { if (server.exitCode === null) server.kill("SIGTERM"); };
process.on("exit", stopServer);

async function waitHealthy() {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}\n${out}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok && /setup\?token=|running at/.test(out)) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy\n${out}`);
}

let code = 1;
try {
  await waitHealthy();
  await new Promise((r) => setTimeout(r, 200)); // let the setup link be flushed
  const setupUrl = (out.match(/(http:\/\/\S+\/setup\?token=[0-9a-f]+)/) || [])[1];
  if (!setupUrl) throw new Error(`no setup link printed:\n${out}`);
  // E2E_ONLY=04 runs only the files whose names contain it.
  const only = process.env.E2E_ONLY || "";
  const files = readdirSync(join(here, "tests")).filter((f) => f.endsWith(".test.mjs") && f.includes(only)).sort()
    .map((f) => join(here, "tests", f));
  const runner = spawn(process.execPath, ["--test", "--test-concurrency=1", ...files], {
    stdio: "inherit",
    env: { ...process.env, BASE_URL: base, SETUP_URL: setupUrl, ARTIFACTS: join(here, "artifacts") },
  });
  code = await new Promise((r) => runner.on("exit", (c) => r(c ?? 1)));
} catch (e) {
  console.error(e.message);
} finally {
  stopServer();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
