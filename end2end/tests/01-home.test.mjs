// The home page: complete before scripts run, interactive after hydration, and a WebGL2
// canvas that really draws and responds to drag and wheel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PNG } from "pngjs";
import { BASE, ARTIFACTS, launch, waitFrames } from "./browser.mjs";

test("server-rendered HTML has the content before any script runs", async () => {
  const { context, close } = await launch({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const res = await page.goto(BASE + "/");
    assert.equal(res.status(), 200);
    assert.match(await page.title(), /Space Baduk/);
    assert.match(await page.textContent("[data-testid=rooms-empty]"), /No rooms yet/);
    assert.match(await page.textContent("[data-testid=server-version]"), /Space Baduk \d+\.\d+\.\d+/);
    assert.equal(await page.locator("#signin-form input[name=username]").count(), 1);
    assert.equal(await page.locator("[data-testid=board-canvas]").count(), 1);
    await page.screenshot({ path: `${ARTIFACTS}/home-no-js.png` });
  } finally { await close(); }
});

/** Decodes a screenshot and returns colour statistics of its pixels. */
function colourStats(buffer) {
  const png = PNG.sync.read(buffer);
  const colours = new Set();
  let red = 0, green = 0, blue = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
    colours.add((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3));
    if (r > 180 && g < 110 && b < 110) red++;
    if (g > 150 && r < 100 && b < 140) green++;
    if (b > 190 && r < 110 && g < 170) blue++;
  }
  return { distinct: colours.size, red, green, blue, pixels: png.width * png.height };
}

test("after hydration the canvas draws the lattice and a click round-trips to the server", async () => {
  const { context, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(BASE + "/");
    await waitFrames(page, 1);
    await page.waitForTimeout(300);

    await page.screenshot({ path: `${ARTIFACTS}/home.png` });
    const canvas = page.locator("[data-testid=board-canvas]");
    const shot = await canvas.screenshot({ path: `${ARTIFACTS}/home-board.png` });
    const s = colourStats(shot);
    assert.ok(s.distinct > 20, `canvas is not one colour (${s.distinct} colours)`);
    assert.ok(s.red > 30 && s.green > 30 && s.blue > 30, `three axis colours visible: ${JSON.stringify(s)}`);

    // Click → state change that needs the hydrated app and a server-function round trip.
    assert.equal((await page.textContent("[data-testid=check-result]")).trim(), "");
    await page.click("[data-testid=check-server]");
    await page.waitForFunction(() => /✓ Space Baduk/.test(document.querySelector("[data-testid=check-result]").textContent));

    // Drag rotates: a new frame is drawn and the picture changes.
    const box = await canvas.boundingBox();
    const frames = Number(await canvas.getAttribute("data-frames"));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 6 });
    await page.mouse.up();
    await waitFrames(page, frames + 1);
    await page.waitForTimeout(200);
    const rotated = await canvas.screenshot({ path: `${ARTIFACTS}/home-board-rotated.png` });
    assert.ok(!rotated.equals(shot), "rotation changed the picture");

    // Wheel zooms: fewer background pixels when zoomed in.
    const before = colourStats(rotated);
    const frames2 = Number(await canvas.getAttribute("data-frames"));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    await waitFrames(page, frames2 + 1);
    await page.waitForTimeout(200);
    const zoomed = await canvas.screenshot({ path: `${ARTIFACTS}/home-board-zoomed.png` });
    assert.ok(!zoomed.equals(rotated), "zoom changed the picture");
    assert.ok(colourStats(zoomed).distinct > 20 && before.distinct > 20);

    await page.screenshot({ path: `${ARTIFACTS}/home-after-interaction.png` });
    assert.deepEqual(errors, [], "no uncaught page errors");
  } finally { await close(); }
});

test("a browser that prefers Korean gets the pages in Korean, and the switch remembers English", async () => {
  const { context, close } = await launch({ locale: "ko-KR" });
  try {
    const page = await context.newPage();
    await page.goto(BASE + "/");
    assert.equal(await page.getAttribute("html", "lang"), "ko");
    assert.equal((await page.textContent("#rooms-title")).trim(), "대국실");
    assert.match(await page.textContent("[data-testid=rooms-empty]"), /아직 대국실이 없습니다/);
    await page.waitForFunction(() => window.__sb_hydrated === true, null, { timeout: 60_000 });
    await page.click("[data-testid=lang-switch]");
    await page.waitForFunction(() => document.querySelector("#rooms-title").textContent.trim() === "Rooms");
    await page.goto(BASE + "/signup");
    assert.equal((await page.textContent("h1")).trim(), "Sign up", "the choice is kept in a cookie");
    await page.waitForFunction(() => window.__sb_hydrated === true, null, { timeout: 60_000 });
    await page.click("[data-testid=lang-switch]");
    await page.waitForFunction(() => document.querySelector("h1").textContent.trim() === "가입");
    assert.match(await page.textContent("#signup-form"), /비밀번호 확인/);
  } finally { await close(); }
});
