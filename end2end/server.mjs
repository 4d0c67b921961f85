// Starts the real release server on a fresh SQLite data directory (a random port) and
// returns its base URL, the printed one-time setup link and a stop function. With
// `dataDir`, on that folder instead (kept, and as the instance `instanceId` if given: the
// instance that wrote it, so that its rooms' leases are its own at once).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, "..");

export async function startServer({ dataDir: existing, instanceId } = {}) {
  const bin = join(root, "target/release/space-baduk");
  const siteRoot = join(root, "target/site");
  if (!existsSync(bin) || !existsSync(join(siteRoot, "pkg"))) {
    throw new Error(`missing ${bin} or ${siteRoot}/pkg: run \`cargo leptos build --release\` first (make test does)`);
  }
  const dataDir = existing || mkdtempSync(join(tmpdir(), "space-baduk-e2e-"));
  const port = 3100 + Math.floor(Math.random() * 800);
  const base = `http://127.0.0.1:${port}`;
  const args = ["--port", String(port), "--data-dir", dataDir, "--site-root", siteRoot, "--log", "warn"];
  if (instanceId) args.push("--instance-id", instanceId);
  const server = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  server.stdout.on("data", (d) => { out += d; });
  const stop = () => {
    if (server.exitCode === null) server.kill("SIGTERM");
    if (!existing) rmSync(dataDir, { recursive: true, force: true });
  };
  process.on("exit", stop);
  for (let i = 0; ; i++) {
    if (i >= 300) { stop(); throw new Error(`server did not become healthy\n${out}`); }
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}\n${out}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok && /setup\?token=|running at/.test(out)) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 200)); // let the setup link be flushed
  const setupUrl = (out.match(/(http:\/\/\S+\/setup\?token=[0-9a-f]+)/) || [])[1];
  return { base, setupUrl, stop };
}
