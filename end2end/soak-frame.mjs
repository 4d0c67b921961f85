// The browser drawing the soak game's final position — a benchmark, not a test.
// `target/release/soak --keep DIR` leaves its finished 25×25×25 game in DIR; this serves
// that folder with the release server and the site bundle, opens the room's page in fresh
// headless Chromium (software GL) as a visitor, and reports the time until the final
// position's first frame and the frame time while a drag turns the board, as a player
// turning it would. Prints medians of three browsers.
//
//   make build      # the site and its server, first: a plain `cargo build` of space-baduk
//                   # (as `--bins` would do) does not know the site's file names
//   cargo build --release -p server --features load --bin soak
//   target/release/soak --keep /tmp/soak-25 --finished-rooms 0 && node end2end/soak-frame.mjs /tmp/soak-25 ROOM
import { startServer } from "./server.mjs";

const [dir, room] = process.argv.slice(2);
if (!dir || !/^\d+$/.test(room || "")) {
  console.error("usage: node end2end/soak-frame.mjs DIR ROOM (from `target/release/soak --keep DIR`)");
  process.exit(2);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
// The soak tool's server instance name (testclient's ServerProcess::start).
const server = await startServer({ dataDir: dir, instanceId: "test-server" });
process.env.BASE_URL = server.base;
const { launch } = await import("./tests/browser.mjs");
const { waitHydrated, roomView } = await import("./tests/game.mjs");
const frames = (page) => page.evaluate(() => Number(document.querySelector("[data-testid=board-canvas]")?.dataset.frames || 0));

try {
  const firsts = [], dragFps = [];
  const view = await roomView(room);
  const stones = view.stones.length;
  for (let run = 0; run < 3; run++) {
    const b = await launch();
    try {
      const page = await b.context.newPage();
      page.on("pageerror", (e) => console.error("page error:", e.message));
      const t0 = Date.now();
      await page.goto(`${server.base}/rooms/${room}`);
      await waitHydrated(page);
      await page.waitForFunction(() => Number(document.querySelector("[data-testid=board-canvas]")?.dataset.frames) >= 1, null, { timeout: 300_000 });
      firsts.push(Date.now() - t0);
      // Turn the board with a held drag for 5 s, one small step after another.
      const box = await page.locator("[data-testid=board-canvas]").boundingBox();
      const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      const f0 = await frames(page), start = Date.now();
      for (let i = 0; Date.now() - start < 5000; i++) {
        await page.mouse.move(cx + 80 * Math.sin(i / 10), cy + 30 * Math.cos(i / 10));
      }
      const f1 = await frames(page), ms = Date.now() - start;
      await page.mouse.up();
      dragFps.push(((f1 - f0) * 1000) / ms);
      if (run === 0) await page.screenshot({ path: `${process.env.ARTIFACTS || "/tmp"}/soak-final-25.png` });
    } finally {
      await b.close();
    }
  }
  const f = median(dragFps);
  console.log(`soak game's final position (room ${room}, ${view.phase}, ${stones} stones): first frame median ${median(firsts)} ms ` +
    `after navigation (runs ${firsts.join(", ")}); turning it: median ${f.toFixed(1)} fps, ${(1000 / f).toFixed(0)} ms per frame ` +
    `(runs ${dragFps.map((x) => x.toFixed(1)).join(", ")})`);
} finally {
  server.stop();
}
