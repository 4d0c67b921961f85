// The split bundle on a bad network: a page fetches its WASM chunks as it needs them, and a
// chunk that cannot be fetched stops the app. A dropped request is tried again
// (app/src/fetch_retry.js), and a chunk that never arrives leaves a page that says so and
// offers a reload, in the reader's language, instead of a dead page.
//
// The network is cut with Chromium's own request blocking (DevTools `Network.setBlockedURLs`):
// Playwright's `page.route` does not see the app's fetch() of a chunk whose preload it has
// already answered.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch } from "./browser.mjs";
import { waitHydrated } from "./game.mjs";

const CHUNKS = "*/pkg/chunk_*.wasm";

async function blocker(b, page) {
  const cdp = await b.context.newCDPSession(page);
  await cdp.send("Network.enable");
  return (urls) => cdp.send("Network.setBlockedURLs", { urls });
}

test("chunk fetches that fail are tried again, and the page hydrates once the network is back", async () => {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const block = await blocker(b, page);
    await block([CHUNKS]);
    // The network comes back 300 ms after the app's first fetch of a chunk failed.
    let failed = 0;
    page.on("requestfailed", (r) => {
      if (r.resourceType() === "fetch" && r.url().includes("/pkg/chunk_") && failed++ === 0) {
        setTimeout(() => block([]), 300);
      }
    });
    await page.goto(BASE + "/rules");
    await waitHydrated(page);
    assert.ok(failed > 0, "the app's own chunk fetches failed first");
    assert.deepEqual(errors, [], "no page error");
    assert.equal(await page.locator("#page-failed").isHidden(), true, "no failure notice");
  } finally {
    await b.close();
  }
});

test("a chunk that never arrives leaves a notice with a reload, in the reader's language", async () => {
  const b = await launch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    for (const [lang, words] of [["en", /stopped working/], ["ko", /멈췄습니다/]]) {
      await b.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
      const page = await b.context.newPage();
      const block = await blocker(b, page);
      await block([CHUNKS]);
      const t0 = Date.now();
      await page.goto(BASE + "/rules");
      // Five more tries, 7.75 s of waiting in all; then the app stops and says so.
      const notice = page.locator("#page-failed");
      await notice.waitFor({ state: "visible", timeout: 60_000 });
      assert.ok(Date.now() - t0 >= 7_000, "the notice comes only after the retries");
      assert.match(await notice.innerText(), words);
      assert.equal(await page.evaluate(() => window.__sb_hydrated === true), false, "the page did not claim to be ready");
      await page.screenshot({ path: `${ARTIFACTS}/chunk-failed-${lang}-phone.png` });
      // The network is back: the notice's button reloads, and the page works.
      await block([]);
      await notice.locator("button").click();
      await waitHydrated(page);
      assert.equal(await page.locator("#page-failed").isHidden(), true);
      await page.close();
    }
  } finally {
    await b.close();
  }
});
