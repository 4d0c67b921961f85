// Starts the real release server on a fresh SQLite data directory, runs the browser tests
// against it with node's test runner, and stops it. Screenshots go to end2end/artifacts/.
// E2E_ONLY=04 runs only the test files whose names contain it (E2E_ONLY=04,15: either).
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(join(here, "artifacts"), { recursive: true });

let code = 1;
let server;
try {
  server = await startServer();
  if (!server.setupUrl) throw new Error("no setup link printed");
  const only = (process.env.E2E_ONLY || "").split(",");
  const files = readdirSync(join(here, "tests")).filter((f) => f.endsWith(".test.mjs") && only.some((o) => f.includes(o))).sort()
    .map((f) => join(here, "tests", f));
  const runner = spawn(process.execPath, ["--test", "--test-concurrency=1", ...files], {
    stdio: "inherit",
    env: { ...process.env, BASE_URL: server.base, SETUP_URL: server.setupUrl, ARTIFACTS: join(here, "artifacts") },
  });
  code = await new Promise((r) => runner.on("exit", (c) => r(c ?? 1)));
} catch (e) {
  console.error(e.message);
} finally {
  server?.stop();
}
process.exit(code);
