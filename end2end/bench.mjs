// Browser-side speed of the product — a benchmark, not a test: transfer sizes, first paint
// and time to interactive, the frame time of 19³ and 25³ middle games and of a full 25³
// board on software WebGL, a 19³ room's load, and tap-to-preview latency on the flat board,
// the whole 3D view, the region's 3D view and the layer plan. Prints medians. `make
// bench-ui` runs it.
//
// A page's download is what it asked for up to its hydration mark (`__sb_hydrated_at`, set by
// `mark_hydrated`), by the page's own resource timings. Home's time to interactive is the
// median of 9 fresh browsers, each reporting the moment through a CDP binding: playwright's
// `waitForFunction` would run its own script in the page while it hydrates. Figures:
// docs/performance.md.
import { request } from "node:http";
import { startServer } from "./server.mjs";

process.env.BASE_URL ||= "";
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const server = await startServer();
process.env.BASE_URL = server.base;
const { launch } = await import("./tests/browser.mjs");
const { player, createRoom, sit, agreeAndReady, waitHydrated, spaceRoom, middleGame } = await import("./tests/game.mjs");

// The bytes the server sends for `path` to a client accepting `encoding` (the bundle's
// files go out as their precompressed copies: scripts/bundle/precompress.sh).
function sentSize(path, encoding) {
  return new Promise((resolve, reject) => {
    const req = request(server.base + path, { headers: { "accept-encoding": encoding } }, (res) => {
      let n = 0;
      res.on("data", (d) => { n += d.length; });
      res.on("end", () => resolve({ bytes: n, encoding: res.headers["content-encoding"] || "identity" }));
    });
    req.on("error", reject);
    req.end();
  });
}
const gzipSize = (path) => sentSize(path, "gzip");

try {
  // What a fresh browser downloads to make a page interactive: the /pkg/ files and the texts
  // (/i18n/: i18n::catalogue) the page asked for until it marked itself hydrated, by its own
  // resource timings (what comes after, like the 3D renderer's chunk, is not part of
  // becoming interactive); with `frames`, everything until the first frame.
  async function firstLoad(path, { frames = false } = {}) {
    const b = await launch();
    const page = await b.context.newPage();
    await page.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
    await page.goto(server.base + path);
    await waitHydrated(page);
    if (frames) await page.waitForFunction(() => Number(document.querySelector("[data-testid=board-canvas]")?.dataset.frames) >= 1, null, { timeout: 120_000 });
    const asked = new Set(await page.evaluate((all) => performance.getEntriesByType("resource")
      .filter((e) => all || e.startTime <= window.__sb_hydrated_at)
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith("/pkg/") || p.startsWith("/i18n/")), frames));
    await b.close();
    // Counted as gzip (the measure the size aims are set in) and as brotli (what Chromium gets).
    let total = 0, wasm = 0, br = 0;
    for (const f of asked) {
      const { bytes } = await gzipSize(f);
      total += bytes;
      if (f.endsWith(".wasm")) wasm += bytes;
      // The texts are compressed per answer, gzip only: that is what Chromium gets for them.
      const asBr = await sentSize(f, "br");
      br += asBr.encoding === "br" ? asBr.bytes : (await gzipSize(f)).bytes;
    }
    return { files: asked.size, total, wasm, br };
  }
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  const load = (l) => `${l.files} files, ${kib(l.total)} gzip (wasm ${kib(l.wasm)}); ${kib(l.br)} brotli`;
  const main = await gzipSize("/pkg/space-baduk.wasm");
  const mainBr = await sentSize("/pkg/space-baduk.wasm", "br");
  console.log(`main wasm ${kib(main.bytes)} (${main.encoding}), ${kib(mainBr.bytes)} (${mainBr.encoding})`);
  const home = await firstLoad("/");
  console.log(`home, interactive: ${load(home)}`);
  const homeBoard = await firstLoad("/", { frames: true });
  console.log(`home with its 3D board drawn (the renderer's chunk after): ${load(homeBoard)}`);
  const rules = await firstLoad("/rules");
  console.log(`rules page, interactive: ${load(rules)}`);

  // First contentful paint and hydration (interactive), fresh profile each time.
  // Measured without playwright in the page while it loads: `waitForFunction` injects
  // playwright's own script (9–38 ms of evaluation in traces here) into the page mid-hydration,
  // which a player's browser never runs. A CDP binding reports the moment instead: the page
  // gets only a setter that calls it when `mark_hydrated` writes `__sb_hydrated_at`.
  async function hydratedQuietly(path) {
    const b = await launch();
    try {
      const page = await b.context.newPage();
      const cdp = await b.context.newCDPSession(page);
      await cdp.send("Runtime.enable");
      await cdp.send("Page.enable");
      await cdp.send("Runtime.addBinding", { name: "__sbReport" });
      await cdp.send("Page.addScriptToEvaluateOnNewDocument", {
        source: "Object.defineProperty(window, '__sb_hydrated_at', { configurable: true, set(v) {"
          + " Object.defineProperty(window, '__sb_hydrated_at', { value: v, writable: true }); __sbReport(String(v)); } });",
      });
      const reported = new Promise((resolve) => cdp.on("Runtime.bindingCalled", (e) => {
        if (e.name === "__sbReport") resolve(Number(e.payload));
      }));
      const nav = await cdp.send("Page.navigate", { url: server.base + path });
      if (nav.errorText) throw new Error(`${path}: ${nav.errorText}`);
      let timer;
      const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error(`${path} did not hydrate in 60 s`)), 60_000); });
      const tti = await Promise.race([reported, late]).finally(() => clearTimeout(timer));
      const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
      return { fcp, tti };
    } finally {
      await b.close();
    }
  }
  const paints = [], interactive = [];
  for (let i = 0; i < 9; i++) {
    const t = await hydratedQuietly("/");
    paints.push(t.fcp); interactive.push(t.tti);
  }
  console.log(`home: first contentful paint median ${median(paints).toFixed(0)} ms, interactive (hydrated) median ${median(interactive).toFixed(0)} ms over ${interactive.length} fresh browsers (${[...interactive].sort((a, b) => a - b).map((t) => t.toFixed(0)).join(", ")})`);

  // Frame rate of the benchmark page (a box turning every frame) in a fresh browser.
  async function fpsOf(query, seconds) {
    const b = await launch();
    const page = await b.context.newPage();
    await page.goto(server.base + "/bench/board?" + query);
    await page.waitForFunction(() => Number(document.querySelector("[data-testid=board-canvas]")?.dataset.frames) >= 3, null, { timeout: 120_000 });
    const frames = await page.evaluate(async (ms) => {
      const c = document.querySelector("[data-testid=board-canvas]");
      const f0 = Number(c.dataset.frames), t0 = performance.now();
      await new Promise((r) => setTimeout(r, ms));
      return { n: Number(c.dataset.frames) - f0, ms: performance.now() - t0 };
    }, seconds * 1000);
    await b.close();
    return (frames.n * 1000) / frames.ms;
  }
  // Middle games: 19³ and 25³ boxes with 400 stones scattered (the page's fixed walk), the
  // last move marked, turning every frame: what a player's whole view costs to draw.
  for (const n of [19, 25]) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await fpsOf(`n=${n}&stones=400`, 4));
    const m = median(runs);
    console.log(`${n}×${n}×${n} with 400 stones (a middle game), SwiftShader: median ${m.toFixed(1)} fps (${(1000 / m).toFixed(1)} ms per frame); runs ${runs.map((x) => x.toFixed(1)).join(", ")}`);
  }
  // Frame time of a full 25×25×25 board (15,625 stones) turning every frame.
  const fps = [];
  for (let i = 0; i < 3; i++) fps.push(await fpsOf("n=25", 5));
  const f = median(fps);
  console.log(`25×25×25 full board, SwiftShader: median ${f.toFixed(1)} fps (${(1000 / f).toFixed(1)} ms per frame); runs ${fps.map((x) => x.toFixed(1)).join(", ")}`);
  // The same page with a 5×5×5 box (125 stones): what this software GL gives a nearly
  // empty canvas of the same size — the ceiling for any board here.
  const small = await fpsOf("n=5", 4);
  console.log(`5×5×5 box on the same page (ceiling of this software GL): ${small.toFixed(1)} fps; full 25³ board costs ${(small / f).toFixed(1)}× its frame time`);

  // Tap-to-preview: a player taps points of a 19×19 board; time from the click event to the
  // preview stone in the DOM and then painted (next animation frame).
  const a = await player("bench_a"), c = await player("bench_b");
  const { id, links } = await createRoom(a, { name: "bench", preset: "classic", size: 19, colours: "host_black" });
  await sit(a, links[0]); await sit(c, links[1]);
  await agreeAndReady(id, a, c);
  const roomLoad = await firstLoad(`/rooms/${id}`);
  console.log(`room page (19×19, spectator), interactive: ${load(roomLoad)}`);
  // Two times per tap: until the preview is in the DOM (the app's own work), and until the
  // browser's next animation frame after that (when it can be on screen).
  const lat = await a.page.evaluate(async () => {
    const dom = [], painted = [];
    for (let i = 0; i < 21; i++) {
      const x = 1 + (i % 19), y = 1 + ((i * 7) % 19);
      const el = document.querySelector(`[data-testid=pt-${x}-${y}-1]`);
      const t0 = performance.now();
      el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      while (!document.querySelector("[data-testid=preview]")) await new Promise((r) => setTimeout(r, 0));
      dom.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => r()));
      painted.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 30));
    }
    return { dom, painted };
  });
  console.log(`tap → preview in the DOM (19×19): median ${median(lat.dom).toFixed(1)} ms; → next animation frame: median ${median(lat.painted).toFixed(1)} ms, max ${Math.max(...lat.painted).toFixed(1)} ms over ${lat.painted.length} taps`);
  await a.close(); await c.close();

  // A 19³ room in a middle game (320 stones), as its player sees it: the room's load, and
  // tap → preview on the whole 3D view, the region's 3D view and the layer plan. "Shown" is
  // the next animation frame after the selection is in the page; for a 3D view, the next
  // frame after its canvas drew again.
  const sb = await player("bench_space_b"), sw = await player("bench_space_w");
  const sid = await spaceRoom(sb, sw, 19, "bench 19");
  await middleGame(sb, sw, sid, 19, 320, 19);
  const roomLoads = [];
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    await sb.page.goto(`${server.base}/rooms/${sid}`);
    await waitHydrated(sb.page);
    await sb.page.waitForFunction(() => Number(document.querySelector("[data-testid=board-canvas]")?.dataset.frames) >= 1, null, { timeout: 120_000 });
    roomLoads.push(Date.now() - t0);
  }
  console.log(`19³ room with 320 stones: loaded to the first frame of its 3D view, median ${median(roomLoads)} ms (${roomLoads.join(", ")})`);
  // Loading the room again is a reconnection: play resumes when each player is Ready again.
  for (const p of [sb, sw]) {
    if (p === sw) { await sw.page.goto(`${server.base}/rooms/${sid}`); await waitHydrated(sw.page); }
    const ready = p.page.locator("[data-testid=ready]");
    if (await ready.count()) await ready.click();
  }
  await sb.page.waitForSelector("[data-testid=selection]", { timeout: 30_000 });
  // Where each empty point of the 19³ box is drawn on the whole view.
  await sb.page.evaluate(() => document.querySelector("[data-testid=board-canvas]").setAttribute("data-probe", "points"));
  await sb.page.evaluate(() => document.querySelector("[data-testid=board-canvas]").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" })));
  await sb.page.waitForFunction(() => (JSON.parse(document.querySelector("[data-testid=board-canvas]").dataset.projection || "{}").points || []).length > 0);
  const tapTimes = (canvasSel, points) => sb.page.evaluate(async ([sel, pts]) => {
    const c = document.querySelector(sel);
    const r = c.getBoundingClientRect();
    const out = [];
    for (const [x, y] of pts) {
      const before = document.querySelector("[data-testid=selection]").textContent;
      const frames = Number(c.dataset.frames);
      const t0 = performance.now();
      for (const type of ["pointerdown", "pointerup"]) {
        c.dispatchEvent(new PointerEvent(type, { bubbles: true, clientX: r.left + x, clientY: r.top + y, pointerId: 1, button: 0, isPrimary: true }));
      }
      while (document.querySelector("[data-testid=selection]").textContent === before || Number(c.dataset.frames) === frames) {
        await new Promise((res) => requestAnimationFrame(() => res()));
        if (performance.now() - t0 > 5000) break;
      }
      await new Promise((res) => requestAnimationFrame(() => res()));
      out.push(performance.now() - t0);
      await new Promise((res) => setTimeout(res, 50));
    }
    return out;
  }, [canvasSel, points]);
  const proj = JSON.parse(await sb.page.getAttribute("[data-testid=board-canvas]", "data-projection"));
  const clearOf = (pts) => pts.filter(([, , , sx, sy]) => sx > 20 && sy > 20 && proj.stones.every((s) => Math.hypot(s.x - sx, s.y - sy) > s.r + 6));
  const wholeTaps = clearOf(proj.points).filter((_, i) => i % 97 === 0).slice(0, 15).map(([, , , sx, sy]) => [sx, sy]);
  const whole = await tapTimes("[data-testid=board-canvas]", wholeTaps);
  console.log(`tap → preview shown, whole 3D view (19³, 320 stones): median ${median(whole).toFixed(1)} ms, max ${Math.max(...whole).toFixed(1)} ms over ${whole.length} taps`);
  // The region's 3D view: its own canvas, its own projection.
  await sb.page.click("[data-testid=region-3d]");
  await sb.page.evaluate(() => document.querySelector("[data-testid=region-canvas]").setAttribute("data-probe", "points"));
  await sb.page.evaluate(() => document.querySelector("[data-testid=region-canvas]").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" })));
  await sb.page.waitForFunction(() => (JSON.parse(document.querySelector("[data-testid=region-canvas]").dataset.projection || "{}").points || []).length > 0);
  const rproj = JSON.parse(await sb.page.getAttribute("[data-testid=region-canvas]", "data-projection"));
  const regionTaps = rproj.points.filter(([, , , sx, sy]) => sx > 20 && sy > 20 && rproj.stones.every((s) => Math.hypot(s.x - sx, s.y - sy) > s.r + 6))
    .filter((_, i) => i % 37 === 0).slice(0, 15).map(([, , , sx, sy]) => [sx, sy]);
  const region = await tapTimes("[data-testid=region-canvas]", regionTaps);
  console.log(`tap → preview shown, region 3D view: median ${median(region).toFixed(1)} ms, max ${Math.max(...region).toFixed(1)} ms over ${region.length} taps`);
  // The layer plan: a click on a point, the preview in the plan, the next frame.
  await sb.page.click("[data-testid=region-plan]");
  const plan = await sb.page.evaluate(async () => {
    const out = [];
    const pts = [...document.querySelectorAll("[data-testid=region] [data-testid^=pt-]")];
    for (let i = 0; i < 21; i++) {
      const el = pts[(i * 7) % pts.length];
      const before = document.querySelector("[data-testid=selection]").textContent;
      const t0 = performance.now();
      el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      while (document.querySelector("[data-testid=selection]").textContent === before && performance.now() - t0 < 5000) {
        await new Promise((r) => setTimeout(r, 0));
      }
      await new Promise((r) => requestAnimationFrame(() => r()));
      out.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    return out;
  });
  console.log(`tap → preview shown, layer plan (19 × 19): median ${median(plan).toFixed(1)} ms, max ${Math.max(...plan).toFixed(1)} ms over ${plan.length} taps`);
  await sb.close(); await sw.close();
} finally {
  server.stop();
}
process.exit(0);
