// Installable app: manifest and icons served, service worker registered, and a reload
// while the server is unreachable shows the app's own offline page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PNG } from "pngjs";
import { BASE, ARTIFACTS, launch, waitFrames } from "./browser.mjs";

test("the manifest and its icons are served", async () => {
  const res = await fetch(BASE + "/manifest.webmanifest");
  assert.equal(res.status, 200);
  const m = await res.json();
  assert.equal(m.display, "standalone");
  assert.equal(m.short_name, "Space Baduk");
  assert.ok(m.name && m.start_url && m.theme_color && m.background_color);
  const sizes = new Set();
  for (const icon of m.icons) {
    const r = await fetch(BASE + icon.src);
    assert.equal(r.status, 200, icon.src);
    const png = PNG.sync.read(Buffer.from(await r.arrayBuffer()));
    assert.equal(`${png.width}x${png.height}`, icon.sizes, icon.src);
    sizes.add(`${icon.sizes}/${icon.purpose}`);
  }
  assert.ok(sizes.has("192x192/any") && sizes.has("512x512/any") && sizes.has("512x512/maskable"), [...sizes].join());
});

test("the service worker registers and serves the offline page when the server is unreachable", async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    await page.goto(BASE + "/");
    await waitFrames(page, 1);
    const active = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active && reg.active.scriptURL;
    });
    assert.match(active, /\/sw\.js$/);
    // A reload puts the page under the worker's control.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector("[data-testid=offline]");
    assert.match(await page.textContent("h1"), /서버에 연결할 수 없습니다/);
    await page.screenshot({ path: `${ARTIFACTS}/offline.png` });
    await context.setOffline(false);
  } finally { await close(); }
});
