// The three-PC LAN set-up of the seed, on one machine: the server in one network namespace,
// each player's browser in a namespace of its own, joined through this machine's routing
// like three PCs on a switch. The players make a room, sit, play a Classic 9×9 game to an
// agreed result through their pages; the test checks that the server saw both players from
// their own addresses, and reports how long a confirmed move took to appear on the
// opponent's screen. Needs root (`ip netns`), the release server and the site bundle.
//
//   node end2end/lan.mjs            (make lan-play)
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const artifacts = join(here, "artifacts");
const PORT = 8080;

// Hosts: name, namespace, subnet 10.232.n.0/30 (this machine .1, the host .2). Black plays
// on a desktop in English, White on a 390×844 phone in Korean.
const hosts = [
  { name: "server", ns: "sb-lan-server", n: 1 },
  { name: "black", ns: "sb-lan-black", n: 2, browser: { locale: "en-GB" } },
  { name: "white", ns: "sb-lan-white", n: 3, browser: { locale: "ko-KR", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];
const addr = (h) => `10.232.${h.n}.2`;

function ip(...args) {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}
function inNs(ns, cmd, args) {
  return execFileSync("ip", ["netns", "exec", ns, cmd, ...args], { encoding: "utf8" });
}

function teardown() {
  for (const h of hosts) {
    try { ip("netns", "del", h.ns); } catch { /* not there */ }
    try { ip("link", "del", `sbl${h.n}`); } catch { /* gone with the namespace */ }
  }
}

function network() {
  teardown();
  for (const h of hosts) {
    const outside = `sbl${h.n}`, inside = `sbl${h.n}i`;
    ip("netns", "add", h.ns);
    // IPv4 only: an IPv6 link-local address settling (DAD) a second after the link comes up
    // is a network change to Chromium, which fails its requests in flight with
    // ERR_NETWORK_CHANGED (seen in CI: a chunk of the first page lost).
    ip("netns", "exec", h.ns, "sh", "-c",
      "[ ! -d /proc/sys/net/ipv6 ] || { echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6 && " +
      "echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6; }");
    ip("link", "add", outside, "type", "veth", "peer", "name", inside);
    ip("link", "set", inside, "netns", h.ns);
    ip("addr", "add", `10.232.${h.n}.1/30`, "dev", outside);
    ip("link", "set", outside, "up");
    ip("netns", "exec", h.ns, "ip", "addr", "add", `${addr(h)}/30`, "dev", inside);
    ip("netns", "exec", h.ns, "ip", "link", "set", inside, "up");
    ip("netns", "exec", h.ns, "ip", "link", "set", "lo", "up");
    ip("netns", "exec", h.ns, "ip", "route", "add", "default", "via", `10.232.${h.n}.1`);
  }
}

const forwarding = "/proc/sys/net/ipv4/ip_forward";
let forwardingWas = null;
let server = null;
let dataDir = null;
let wrappers = null;
const browsers = [];

async function main() {
  const bin = join(root, "target/release/space-baduk");
  const site = join(root, "target/site");
  if (!existsSync(bin) || !existsSync(join(site, "pkg"))) {
    throw new Error(`missing ${bin} or ${site}/pkg: run \`cargo leptos build --release\` first (make test does)`);
  }
  network();
  // This machine routes between the three hosts (the switch).
  forwardingWas = execFileSync("cat", [forwarding], { encoding: "utf8" }).trim();
  writeFileSync(forwarding, "1");

  const srv = hosts[0];
  const base = `http://${addr(srv)}:${PORT}`;
  dataDir = mkdtempSync(join(tmpdir(), "space-baduk-lan-"));
  server = spawn("ip", ["netns", "exec", srv.ns, bin, "--bind", "0.0.0.0", "--port", String(PORT), "--data-dir", dataDir,
    "--site-root", site, "--public-url", base, "--log", "warn"], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  server.stdout.on("data", (d) => { out += d; });
  for (let i = 0; ; i++) {
    if (i >= 300) throw new Error(`the server did not come up in its namespace\n${out}`);
    try {
      // Asked from the black player's host: across the "switch", not on loopback.
      inNs(hosts[1].ns, "curl", ["-sf", "-o", "/dev/null", `${base}/healthz`]);
      break;
    } catch { await new Promise((r) => setTimeout(r, 100)); }
  }

  // Each browser starts inside its host's namespace (Playwright talks to it over a pipe,
  // so only the pages' traffic crosses the network).
  wrappers = mkdtempSync(join(tmpdir(), "space-baduk-lan-chromium-"));
  process.env.BASE_URL = base;
  process.env.ARTIFACTS = artifacts;
  const { launch } = await import("./tests/browser.mjs");
  const g = await import("./tests/game.mjs");
  async function playerAt(h) {
    const wrapper = join(wrappers, h.name);
    writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${h.ns} ${process.env.CHROMIUM || "/usr/bin/chromium"} "$@"\n`);
    chmodSync(wrapper, 0o755);
    const b = await launch({ executablePath: wrapper, ...h.browser });
    browsers.push(b);
    b.page = await b.context.newPage();
    b.page.on("pageerror", (e) => console.error(`[${h.name}] page error:`, e.message));
    // Which request failed, and how (net::ERR_…), when one does.
    b.page.on("requestfailed", (r) => console.error(`[${h.name}] request failed: ${r.url()} ${r.failure()?.errorText}`));
    // Signed up on the sign-up page, from the player's own host.
    await b.page.goto(`${base}/signup`);
    await g.waitHydrated(b.page);
    const password = "a long test password";
    await b.page.fill("#signup-form input[name=username]", `lan_${h.name}`);
    await b.page.fill("#signup-form input[name=password]", password);
    await b.page.fill("#signup-form input[name=password_again]", password);
    await b.page.click("#signup-form button[type=submit]");
    await b.page.waitForSelector("[data-testid=signup-done]");
    return b;
  }
  const black = await playerAt(hosts[1]);
  const white = await playerAt(hosts[2]);

  const { id, links } = await g.createRoom(black, { name: "LAN 9", preset: "classic", size: 9, colours: "host_black" });
  await g.sit(black, links[0]);
  await g.sit(white, links[1]);
  await g.agreeAndReady(id, black, white);

  // Both players' pages are connected to the server from their own hosts.
  const peers = inNs(srv.ns, "ss", ["-tnH", "state", "established", `( sport = :${PORT} )`]);
  for (const h of hosts.slice(1)) {
    assert.match(peers, new RegExp(`${addr(h).replace(/\./g, "\\.")}:`), `the server sees ${h.name} at ${addr(h)}\n${peers}`);
  }

  // A short game: each move confirmed on one host and timed until the stone is on the other
  // host's screen.
  const moves = [[3, 3], [7, 7], [3, 7], [7, 3], [5, 5], [5, 3], [4, 6], [6, 4], [2, 5], [8, 5]];
  const seen = [];
  for (const [i, [x, y]] of moves.entries()) {
    const [mover, other] = i % 2 === 0 ? [black, white] : [white, black];
    await g.inStep(mover.page, id);
    await g.tap(mover.page, x, y, 1);
    await mover.page.waitForSelector("[data-testid=preview]");
    const t0 = performance.now();
    await mover.page.click("[data-testid=confirm-move]");
    await other.page.waitForSelector(`[data-testid=stone-${x}-${y}-1]`);
    seen.push(performance.now() - t0);
    await g.until(id, (v) => v.move_number === i + 1 && v.awaiting_ack === null, `move ${i + 1} acknowledged`);
  }
  await black.page.screenshot({ path: `${artifacts}/lan-1-black.png` });
  await white.page.screenshot({ path: `${artifacts}/lan-2-white-phone-ko.png` });
  await white.page.screenshot({ path: `${artifacts}/lan-2b-white-phone-ko-full.png`, fullPage: true });

  await g.pass(black, id);
  await g.pass(white, id);
  const scoring = await g.until(id, (v) => v.phase === "scoring", "scoring");
  const n = scoring.scoring.statement;
  await black.page.click("[data-testid=agree]");
  await g.until(id, (v) => v.scoring && v.scoring.consents[0] === n, "black consents");
  await white.page.waitForSelector("[data-testid=agree]");
  await white.page.click("[data-testid=agree]");
  const done = await g.until(id, (v) => v.phase === "finished", "finished");
  assert.equal(done.result.statement, n);
  await white.page.waitForSelector("[data-testid=final-score]");
  await black.page.waitForSelector("[data-testid=final-score]");
  await black.page.screenshot({ path: `${artifacts}/lan-3-result.png`, fullPage: true });
  await white.page.screenshot({ path: `${artifacts}/lan-4-result-phone-ko.png`, fullPage: true });

  const sorted = [...seen].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`lan-play: ${moves.length} moves between two browsers on their own hosts, the server on a third: ` +
    `confirm to the opponent's screen median ${median.toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms; ` +
    `result ${done.result.winner ?? "draw"} by statement ${n}`);
}

let code = 1;
try {
  await main();
  code = 0;
} catch (e) {
  console.error(e.stack || e.message);
} finally {
  for (const b of browsers) await b.close().catch(() => {});
  if (server && server.exitCode === null) server.kill("SIGTERM");
  if (forwardingWas !== null) writeFileSync(forwarding, forwardingWas);
  teardown();
  for (const d of [dataDir, wrappers]) if (d) rmSync(d, { recursive: true, force: true });
}
process.exit(code);
