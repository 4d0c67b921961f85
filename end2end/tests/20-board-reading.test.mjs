// A 3D board a player can read: middle games of 19³ and 25³ drawn on the
// real page, desktop 1280×860 and phone 390×844, Korean and English. Measured from the
// screenshots' pixels: every stone's size on screen and the contrast of its edge against
// what is around it, for both colours and for the previews; the last move's ring found at
// the stone's screen position. Also: the phone's first screen holds the turn, both clocks
// and the action of the moment; controls follow the phase; the layer plan keeps the tapped
// point under the finger; a keyboard alone selects and places a stone through the text
// view; stepping back through earlier positions and back to live.
//
// The renderer says where things are (`data-projection`, asked for with `data-probe`); what
// is there is read from the pixels.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PNG } from "pngjs";
import { ARTIFACTS, BASE, waitFrames } from "./browser.mjs";
import { agreeAndReady, command, createRoom, inStep, middleGame, player, roomView, sit, spaceRoom, tap, until, waitHydrated } from "./game.mjs";

const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

// ---------------------------------------------------------------- colour measures (WCAG 2)
const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)]; return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const medianColour = (cs) => [0, 1, 2].map((i) => median(cs.map((c) => c[i])));

// ---------------------------------------------------------------- reading the picture
async function probe(page, { selector = "[data-testid=board-canvas]", points = false } = {}) {
  await page.evaluate(([s, p]) => document.querySelector(s).setAttribute("data-probe", p ? "points" : "1"), [selector, points]);
  // A frame drawn after the request writes the projection: turn the view a hair and back,
  // a frame each.
  for (const key of ["ArrowLeft", "ArrowRight"]) {
    const before = Number(await page.getAttribute(selector, "data-frames"));
    await page.evaluate(([s, k]) => document.querySelector(s).dispatchEvent(new KeyboardEvent("keydown", { key: k })), [selector, key]);
    await page.waitForFunction(([s, b]) => Number(document.querySelector(s).dataset.frames) > b, [selector, before]);
  }
  await page.waitForTimeout(200);
  const projection = JSON.parse(await page.getAttribute(selector, "data-projection"));
  const box = await page.locator(selector).boundingBox();
  const shot = await page.screenshot();
  const png = PNG.sync.read(shot);
  const dpr = png.width / VIEWPORT_OF(page).width;
  const at = (x, y) => {
    const px = Math.round((box.x + x) * dpr), py = Math.round((box.y + y) * dpr);
    if (px < 0 || py < 0 || px >= png.width || py >= png.height) return null;
    const i = (py * png.width + px) * 4;
    return [png.data[i], png.data[i + 1], png.data[i + 2]];
  };
  return { projection, at, box, shot };
}
const VIEWPORT_OF = (page) => page.viewportSize();

// Where a disc is sampled inside, as fractions of its radius: its body, its edge band and its
// dark rim (the rim's outer pixel blends with what is behind, so the last is at 0.92).
const INSIDE = [0.5, 0.56, 0.62, 0.68, 0.74, 0.8, 0.86, 0.92];
// And just outside it: what lies behind its edge.
const OUTSIDE = [1.3, 1.45, 1.6];

/// Around a disc of radius `r` at (x, y), over the directions in which no other stone
/// (`others`) lies just outside it: the median colour of what lies just outside (the
/// background and the lattice) and, of the disc's own rings (body, edge band, rim), the one
/// that stands out most from it — what identifies the disc there. `null` when fewer than 4
/// of 16 directions are open.
function ring(at, x, y, r, others = []) {
  const inside = INSIDE.map(() => []), outside = [];
  let open = 0;
  for (let k = 0; k < 16; k++) {
    const a = (k / 16) * 2 * Math.PI;
    const pt = (f) => [x + Math.cos(a) * r * f, y + Math.sin(a) * r * f];
    if (!others.every((o) => [1.3, 1.6].every((f) => { const [px, py] = pt(f); return Math.hypot(o.x - px, o.y - py) > o.r + 2; }))) continue;
    open += 1;
    INSIDE.forEach((f, i) => inside[i].push(at(...pt(f))));
    for (const f of OUTSIDE) outside.push(at(...pt(f)));
  }
  if (open < 4) return null;
  const o = medianColour(outside.filter(Boolean));
  const rings = inside.map((cs) => medianColour(cs.filter(Boolean)));
  const band = rings.reduce((best, c) => (contrast(c, o) > contrast(best, o) ? c : best));
  return { band, outside: o, open };
}

/// A stone's contrast against what is behind it: in each of 16 directions where no nearer
/// stone lies over the samples, how far the most contrasting of its rings (body, edge band,
/// dark rim) stands out from what lies just outside it — the background, the lattice or a
/// farther stone; the median over those directions. `null` when fewer than 4 directions are
/// open (a stone packed among nearer ones).
function stoneContrast(at, s, stones) {
  const nearer = near(stones, s).filter((o) => o.depth < s.depth);
  const seen = [];
  for (let k = 0; k < 16; k++) {
    const a = (k / 16) * 2 * Math.PI;
    const pt = (f) => [s.x + Math.cos(a) * s.r * f, s.y + Math.sin(a) * s.r * f];
    if (!nearer.every((o) => [1.3, 1.6].every((f) => { const [px, py] = pt(f); return Math.hypot(o.x - px, o.y - py) > o.r + 2; }))) continue;
    const outside = OUTSIDE.map((f) => at(...pt(f))).filter(Boolean);
    const inside = INSIDE.map((f) => at(...pt(f))).filter(Boolean);
    if (!outside.length || !inside.length) continue;
    const o = medianColour(outside);
    seen.push(Math.max(...inside.map((c) => contrast(c, o))));
  }
  return seen.length >= 4 ? median(seen) : null;
}

/// The drawn radius of a stone, measured: along 8 directions, how far from the centre the
/// pixels still differ from what surrounds the stone (`outside`, ring's median); the median.
function measuredRadius(at, s, outside) {
  const differs = (c) => c && Math.hypot(c[0] - outside[0], c[1] - outside[1], c[2] - outside[2]) > 48;
  const reach = [];
  for (let k = 0; k < 8; k++) {
    const a = (k / 8) * 2 * Math.PI;
    let last = 0;
    for (let d = 0.5; d <= s.r * 1.25; d += 0.5) {
      if (differs(at(s.x + Math.cos(a) * d, s.y + Math.sin(a) * d))) last = d;
    }
    reach.push(last);
  }
  return median(reach) + 0.5;
}

/// The stones in front of `s` or beside it on screen (their discs near its own): what may
/// cover its edge or lie next to it.
function near(stones, s) {
  return stones.filter((o) => o !== s && Math.hypot(o.x - s.x, o.y - s.y) < 2.6 * Math.max(s.r, o.r));
}

async function withLang(p, lang) {
  await p.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
}

async function open(p, id, lang, vp) {
  await withLang(p, lang);
  await p.page.setViewportSize(VIEWPORTS[vp]);
  await p.page.goto(`${BASE}/rooms/${id}`);
  await waitHydrated(p.page);
  await waitFrames(p.page, 1);
  await inStep(p.page, id);
}

/// Stone sizes, edge contrast and the last move's ring on the whole-board view; returns the
/// figures for the closing note.
async function readBoard(p, label) {
  const { projection, at } = await probe(p.page);
  const stones = projection.stones.filter((s) => s.x > 0 && s.y > 0);
  assert.ok(stones.length >= 300, `${label}: ${stones.length} stones drawn`);
  const minR = Math.min(...stones.map((s) => s.r));
  assert.ok(minR * 2 >= 16, `${label}: the smallest stone is drawn ${(minR * 2).toFixed(1)} px across`);
  const figures = { label, stones: stones.length, minDiameter: minR * 2, black: [], white: [], measured: [] };
  // Stones nothing covers (no nearer stone overlaps their disc), measured where their edge
  // meets what is behind it.
  const uncovered = stones.filter((s) => near(stones, s).every((o) => o.depth > s.depth || Math.hypot(o.x - s.x, o.y - s.y) > s.r + o.r));
  for (const s of uncovered) {
    const c = stoneContrast(at, s, stones);
    if (c !== null) figures[s.colour].push(c);
    if (near(stones, s).length === 0) {
      const seen = ring(at, s.x, s.y, s.r);
      if (seen) figures.measured.push(measuredRadius(at, s, seen.outside) * 2);
    }
  }
  for (const colour of ["black", "white"]) {
    assert.ok(figures[colour].length >= 10, `${label}: ${figures[colour].length} ${colour} stones measured`);
    const worst = Math.min(...figures[colour]);
    assert.ok(median(figures[colour]) >= 3, `${label}: ${colour} stones' edge against their surroundings, median ${median(figures[colour]).toFixed(2)}:1`);
    // The few below 3:1 are stones an axis line crosses, or sampled where the edge's
    // anti-aliasing meets the background; most must be clear.
    const clear = figures[colour].filter((c) => c >= 3).length;
    assert.ok(clear >= 0.8 * figures[colour].length, `${label}: ${clear} of ${figures[colour].length} ${colour} stones at 3:1 or more`);
    figures[`${colour}Clear`] = clear;
    figures[`${colour}Median`] = median(figures[colour]);
    figures[`${colour}Worst`] = worst;
  }
  // The measured size agrees with the drawn one (a stone drawn smaller would show here).
  if (figures.measured.length >= 3) {
    assert.ok(median(figures.measured) >= 15, `${label}: measured stone diameter median ${median(figures.measured)} px`);
  }
  // The last move: its ring (1.5 stone radii; its colour from 0.7 to 0.9 of that, a dark
  // outline outside), in its own colour, around the stone's screen position.
  const last = projection.last;
  assert.ok(last, `${label}: the last move is drawn`);
  const r = last.r * 1.5;
  let hits = 0;
  for (let k = 0; k < 16; k++) {
    const a = (k / 16) * 2 * Math.PI;
    const ringed = [0.76, 0.8, 0.84].some((f) => {
      const c = at(last.x + Math.cos(a) * r * f, last.y + Math.sin(a) * r * f);
      return c && c[0] > 200 && c[1] < 150 && c[2] > 110;
    });
    if (ringed) hits += 1;
  }
  assert.ok(hits >= 12, `${label}: the last move's ring seen in ${hits} of 16 directions at ${last.x},${last.y}`);
  return figures;
}

const say = (f) => console.log(`[board] ${f.label}: ${f.stones} stones, smallest ${f.minDiameter.toFixed(1)} px (measured median ${f.measured.length ? median(f.measured).toFixed(1) : "—"} px over ${f.measured.length} lone stones); contrast against what is behind each: black median ${f.blackMedian.toFixed(2)} (worst ${f.blackWorst.toFixed(2)}, ${f.blackClear} of ${f.black.length} stones at 3:1 or more), white median ${f.whiteMedian.toFixed(2)} (worst ${f.whiteWorst.toFixed(2)}, ${f.whiteClear} of ${f.white.length})`);

/// The reading aids on a 19³ middle game: a tap on a stone (the last move's, if in sight) names it; Isolate
/// chain fades the rest and counts its liberties (the server's view agrees); the last moves
/// numbered; a preset view.
async function readingAids(p, id) {
  const { projection } = await probe(p.page);
  // The last move's stone if nothing nearer covers its centre, else a stone nothing covers:
  // a tap takes what is seen there.
  const stones = projection.stones.filter((s) => s.x > 0 && s.y > 0);
  const uncovered = (s) => stones.every((o) => o === s || o.depth >= s.depth || Math.hypot(o.x - s.x, o.y - s.y) > o.r + 2);
  const last = [projection.last, ...stones].find((s) => s && uncovered(s));
  const box = await p.page.locator("[data-testid=board-canvas]").boundingBox();
  await p.page.mouse.click(box.x + last.x, box.y + last.y);
  const name = last.at.join(",");
  await p.page.waitForFunction((n) => [...document.querySelectorAll("[data-testid=board-tag]")].some((t) => t.textContent === n), name);
  await p.page.click("[data-testid=isolate]");
  const focus = await p.page.waitForSelector("[data-testid=chain-focus]");
  const text = await focus.textContent();
  // The liberties the page counts are the empty neighbours of the chain the server holds.
  const v = await roomView(id);
  const held = new Map(v.stones.map(([q, c]) => [`${q.x},${q.y},${q.z}`, c]));
  const colour = held.get(name);
  const chain = new Set([name]);
  const libs = new Set();
  for (const todo = [last.at]; todo.length;) {
    const [x, y, z] = todo.pop();
    for (const [dx, dy, dz] of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]) {
      const q = [x + dx, y + dy, z + dz];
      if (q.some((c) => c < 1 || c > 19)) continue;
      const k = q.join(",");
      if (!held.has(k)) libs.add(k);
      else if (held.get(k) === colour && !chain.has(k)) { chain.add(k); todo.push(q); }
    }
  }
  const stonesText = chain.size === 1 ? "1 stone" : `${chain.size} stones`;
  assert.ok(text.includes(`${stonesText}, liberties: ${libs.size}`), `the chain of ${chain.size} with ${libs.size} liberties: ${text}`);
  await p.page.screenshot({ path: `${ARTIFACTS}/board-isolated-chain.png` });
  await p.page.click("[data-testid=show-all]");
  await p.page.waitForSelector("[data-testid=chain-focus]", { state: "detached" });
  // Pressing and holding the stone isolates its chain too (the touch way, no button).
  await p.page.mouse.move(box.x + last.x, box.y + last.y);
  await p.page.mouse.down();
  await p.page.waitForSelector("[data-testid=chain-focus]");
  await p.page.mouse.up();
  assert.ok((await p.page.textContent("[data-testid=chain-focus]")).includes(`${stonesText}, liberties: ${libs.size}`));
  await p.page.click("[data-testid=show-all]");
  await p.page.click("[data-testid=numbers]");
  // The whole view's own tags (the region's 3D view numbers the moves inside it too).
  await p.page.waitForFunction(() => document.querySelector("[data-testid=board-canvas]").parentElement.querySelectorAll("[data-testid=board-tag]").length === 5);
  await p.page.click("[data-testid=view-top]");
  await p.page.waitForFunction(() => Number(document.querySelector("[data-testid=board-canvas]").dataset.pitch) > 1.5);
  await p.page.screenshot({ path: `${ARTIFACTS}/board-numbered-top.png` });
  await p.page.click("[data-testid=numbers]");
  await p.page.click("[data-testid=view-reset]");
}

test("19³ and 25³ middle games: stones seen, both colours stand out, the last move found", async () => {
  const black = await player("read_black");
  const white = await player("read_white");
  try {
    for (const [n, moves, lang, vp] of [[19, 320, "en", "desktop"], [19, 320, "ko", "phone"], [25, 340, "ko", "desktop"], [25, 340, "en", "phone"]]) {
      const id = await spaceRoom(black, white, n, `Reading ${n} ${vp}`);
      await middleGame(black, white, id, n, moves, 1000 + n);
      await open(black, id, lang, vp);
      await black.page.screenshot({ path: `${ARTIFACTS}/board-${n}-${lang}-${vp}.png` });
      say(await readBoard(black, `${n}³ ${lang} ${vp}`));
      if (n === 19 && vp === "desktop") await readingAids(black, id);
    }
  } finally {
    await black.close();
    await white.close();
  }
});

test("previews stand out; the phone's first screen holds turn, clocks and the action; controls follow the phase", async () => {
  const black = await player("phone_black");
  const white = await player("phone_white");
  try {
    const id = await spaceRoom(black, white, 19, "Phone");
    await middleGame(black, white, id, 19, 120, 7);
    for (const [p, lang] of [[black, "ko"], [white, "en"]]) await open(p, id, lang, "phone");
    // Black's turn (120 moves played): each player selects, by coordinates, an empty point
    // drawn clear of every stone (the renderer says where each point is drawn).
    await black.page.evaluate(() => window.scrollTo(0, 0));
    const { projection: all } = await probe(black.page, { points: true });
    const occupied = new Set(all.stones.map((s) => s.at.join(",")));
    const clear = all.points.filter(([x, y, z, sx, sy]) => !occupied.has(`${x},${y},${z}`) && sx > 30 && sy > 30
      && all.stones.every((s) => Math.hypot(s.x - sx, s.y - sy) > 3 * s.r));
    assert.ok(clear.length > 0, "an empty point clear of the stones");
    const [ex, ey, ez] = clear[Math.floor(clear.length / 2)];
    const empty = { x: ex, y: ey, z: ez };
    for (const [p, at] of [[black, empty], [white, empty]]) {
      await p.page.fill("[data-testid=coord-x]", String(at.x));
      await p.page.fill("[data-testid=coord-y]", String(at.y));
      await p.page.fill("[data-testid=coord-z]", String(at.z));
      await p.page.click("[data-testid=coord-select]");
      await p.page.waitForFunction((a) => document.querySelector("[data-testid=selection]").textContent.includes(a), `${at.x},${at.y},${at.z}`);
    }
    // Both previews (Black's, on its turn; White's, looking only) against what is behind.
    for (const [p, colour] of [[black, "black"], [white, "white"]]) {
      await p.page.evaluate(() => window.scrollTo(0, 0));
      const { projection, at } = await probe(p.page);
      const pv = projection.preview;
      assert.ok(pv, `${colour}: the preview is drawn`);
      const { band, outside } = ring(at, pv.x, pv.y, pv.r);
      const c = contrast(band, outside);
      console.log(`[board] ${colour} preview on 19³ phone: ${(pv.r * 2).toFixed(1)} px, edge contrast ${c.toFixed(2)}:1`);
      assert.ok(c >= 3, `${colour} preview edge ${c.toFixed(2)}:1`);
    }
    // The first screen (no scrolling): whose turn, both clocks, Place stone.
    const inView = async (p, sel) => p.page.evaluate((s) => {
      window.scrollTo(0, 0);
      const r = document.querySelector(s)?.getBoundingClientRect();
      return r && r.height > 0 ? [r.top, r.bottom] : null;
    }, sel);
    for (const sel of ["[data-testid=status]", "[data-testid=clock-black]", "[data-testid=clock-white]", "[data-testid=confirm-move]", "[data-testid=board-canvas]"]) {
      const r = await inView(black, sel);
      assert.ok(r, `${sel} is shown`);
      console.log(`[board] phone, playing: ${sel} at ${r[0].toFixed(0)}–${r[1].toFixed(0)} px`);
      assert.ok(r[1] <= VIEWPORTS.phone.height, `${sel} ends at ${r[1]} px, below the first screen`);
    }
    await black.page.screenshot({ path: `${ARTIFACTS}/board-phone-play-ko.png` });
    // A tab in the background says whose move it is.
    assert.match(await black.page.title(), /^● 내 차례 · Phone/);
    assert.doesNotMatch(await white.page.title(), /Your move/);
    // A spectator who may not read the stored record is told why the list starts late.
    const watcher = await player("phone_watcher");
    try {
      await watcher.page.setViewportSize(VIEWPORTS.phone);
      await watcher.page.goto(`${BASE}/rooms/${id}`);
      await waitHydrated(watcher.page);
      await watcher.page.click("[data-testid=moves] summary");
      await watcher.page.waitForSelector("[data-testid=moves-since-arrival]");
      assert.equal(await watcher.page.locator("[data-testid=move-controls]").count(), 0, "a spectator has no move controls");
    } finally {
      await watcher.close();
    }
    // Controls follow the turn: White (not to move) has no Pass and no Place stone; nothing
    // disabled is left in the move controls.
    assert.equal(await white.page.locator("[data-testid=pass]").count(), 0);
    assert.equal(await white.page.locator("[data-testid=confirm-move]").count(), 0);
    assert.equal(await black.page.locator("[data-testid=move-controls] button:disabled").count(), 0);
    await white.page.screenshot({ path: `${ARTIFACTS}/board-phone-play-en.png` });

    // Scoring: Agree is on the first screen, the move controls are gone, Resign stays.
    for (const p of [black, white]) assert.equal((await command(p, id, { type: "request_scoring" })).status, 200);
    await until(id, (v) => v.phase === "scoring", "scoring");
    for (const p of [black, white]) await p.page.waitForSelector("[data-testid=agree]");
    const agree = await inView(black, "[data-testid=agree]");
    console.log(`[board] phone, scoring: Agree at ${agree[0].toFixed(0)}–${agree[1].toFixed(0)} px`);
    assert.ok(agree[1] <= VIEWPORTS.phone.height, `Agree ends at ${agree[1]} px`);
    assert.equal(await black.page.locator("[data-testid=move-controls]").count(), 0);
    assert.equal(await black.page.locator("[data-testid=resign]").count(), 1);
    await black.page.screenshot({ path: `${ARTIFACTS}/board-phone-scoring-ko.png` });
    // Both consent: the count waits for the administrator's review; Agree is gone.
    const n = (await roomView(id)).scoring.statement;
    for (const p of [black, white]) assert.equal((await command(p, id, { type: "consent", statement: n })).status, 200);
    await until(id, (v) => v.phase === "awaiting_review", "awaiting review");
    await black.page.waitForSelector("[data-testid=awaiting-review]");
    assert.equal(await black.page.locator("[data-testid=resign]").count(), 1, "resigning is still open while the review waits");
    assert.equal(await black.page.locator("[data-testid=agree]").count(), 0);
    // The end (here by resigning while the review waits): the result, and the record's links
    // in the action zone; nothing to play with.
    assert.equal((await command(white, id, { type: "resign" })).status, 200);
    await until(id, (v) => v.phase === "finished", "the end");
    await black.page.waitForSelector("[data-testid=actions] [data-testid=end-record] [data-testid=replay-link]");
    assert.equal(await black.page.locator("[data-testid=resign]").count(), 0);
    assert.equal(await black.page.locator("[data-testid=move-controls]").count(), 0);
    assert.match(await black.page.textContent("[data-testid=status]"), /불계|기권|승/);
    await black.page.screenshot({ path: `${ARTIFACTS}/board-phone-end-ko.png` });
  } finally {
    await black.close();
    await white.close();
  }
});

test("the layer plan keeps the tapped point under the finger; the keyboard plays through the text view; earlier positions", async () => {
  const black = await player("plan_black");
  const white = await player("plan_white");
  try {
    const id = await spaceRoom(black, white, 19, "Plan");
    await middleGame(black, white, id, 19, 40, 11);
    await open(black, id, "en", "phone");
    await black.page.click("[data-testid=pane-plan]");
    await black.page.waitForSelector("[data-testid=region] [data-testid^=pt-]");
    // Tap the plan's points one after another, each where the finger is: the plan stays put.
    const taken = new Set((await roomView(id)).stones.map(([q]) => `${q.x},${q.y},${q.z}`));
    const z = Number((await black.page.textContent("[data-testid=layer]")).replace(/\D+/g, ""));
    const points = await black.page.$$eval("[data-testid=region] [data-testid^=pt-]", (els) => els.map((e) => e.dataset.testid));
    const free = points.filter((t) => { const [, x, y] = t.split("-"); return !taken.has(`${x},${y},${z}`); });
    assert.ok(free.length >= 3, "empty points in the plan");
    for (const t of [free[0], free[Math.floor(free.length / 2)], free[free.length - 1]]) {
      await black.page.locator(`[data-testid=region] [data-testid=${t}]`).scrollIntoViewIfNeeded();
      const box = await black.page.locator(`[data-testid=region] [data-testid=${t}]`).boundingBox();
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      await black.page.mouse.click(cx, cy);
      await black.page.waitForSelector("[data-testid=region] [data-testid=preview]");
      const under = await black.page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.dataset.testid, [cx, cy]);
      assert.equal(under, t, `after tapping ${t} the point under the finger is ${under}`);
      const [, x, y] = t.split("-");
      assert.match(await black.page.textContent("[data-testid=selection]"), new RegExp(`${x},${y},${z}`));
    }
    await black.page.screenshot({ path: `${ARTIFACTS}/board-plan-phone-en.png` });

    // The keyboard alone: the text view of the layer, arrows, Enter to select, Enter to place.
    // (Opening the page again is a reconnection: both press Ready again, 003 §6.3.)
    await open(black, id, "ko", "desktop");
    await until(id, (v) => v.phase === "waiting_ready", "the reconnection's Ready");
    for (const p of [black, white]) assert.equal((await command(p, id, { type: "ready" })).status, 200);
    await until(id, (v) => v.phase === "playing", "play again");
    await inStep(black.page, id);
    await black.page.click("[data-testid=layer-text-open]");
    const grid = black.page.locator("[data-testid=layer-text]");
    await grid.waitFor();
    const snapshot = await grid.ariaSnapshot();
    assert.match(snapshot, /grid/, "the layer is a grid to assistive technology");
    assert.match(snapshot, /gridcell ".+: (흑|백|빈 점)/, "each cell names its point and what is on it");
    await black.page.locator("[data-testid=layer-text] td[tabindex='0']").focus();
    const before = (await roomView(id)).move_number;
    const stones = new Set((await roomView(id)).stones.map(([q]) => `${q.x},${q.y},${q.z}`));
    // Walk right until an empty point, select it, place it.
    for (let i = 0; i < 19; i++) {
      const label = await black.page.evaluate(() => document.activeElement.getAttribute("aria-label"));
      if (/빈 점/.test(label)) break;
      await black.page.keyboard.press("ArrowRight");
      await black.page.waitForFunction((l) => document.activeElement.getAttribute("aria-label") !== l, label);
    }
    const cell = await black.page.evaluate(() => document.activeElement.dataset.testid);
    const [, cx, cy, cz] = cell.split("-").map(Number);
    assert.ok(!stones.has(`${cx},${cy},${cz}`));
    await black.page.keyboard.press("Enter");
    await black.page.waitForFunction((a) => document.querySelector("[data-testid=selection]").textContent.includes(a), `${cx},${cy},${cz}`);
    await black.page.locator(`[data-testid=${cell}]`).focus();
    await black.page.keyboard.press("Enter");
    const after = await until(id, (v) => v.move_number === before + 1, "the keyboard's move");
    assert.ok(after.stones.some(([q, c]) => q.x === cx && q.y === cy && q.z === cz && c === "black"));
    // The move is announced in the room's words.
    await black.page.waitForFunction((a) => document.querySelector("[data-testid=announce]").textContent.includes(a), `${cx},${cy},${cz}`);
    await black.page.screenshot({ path: `${ARTIFACTS}/board-text-view-ko.png` });

    // Earlier positions: back two steps on the same views, a new move announced meanwhile,
    // then back to live with one press.
    assert.equal((await command(white, id, { type: "acknowledge", move_number: before + 1 })).status, 200);
    await black.page.click("[data-testid=history-back]");
    await black.page.click("[data-testid=history-back]");
    await black.page.waitForSelector("[data-testid=looking-back]");
    assert.match(await black.page.textContent("[data-testid=history-at]"), new RegExp(`${before - 1}`));
    const free2 = [1, 1, 1];
    const mv = await command(white, id, { type: "move", at: { x: free2[0], y: free2[1], z: free2[2] } });
    assert.equal(mv.status, 200, mv.body);
    await black.page.waitForFunction(() => /1,1,1/.test(document.querySelector("[data-testid=latest-move]")?.textContent || ""));
    assert.match(await black.page.textContent("[data-testid=history-at]"), new RegExp(`${before - 1}`), "still looking at the same position");
    await black.page.screenshot({ path: `${ARTIFACTS}/board-looking-back-ko.png` });
    await black.page.click("[data-testid=back-to-live]");
    await black.page.waitForSelector("[data-testid=looking-back]", { state: "detached" });
  } finally {
    await black.close();
    await white.close();
  }
});

test("previews on the flat wooden board stand out for both colours", async () => {
  const black = await player("flat_black");
  const white = await player("flat_white");
  try {
    const { id, links } = await createRoom(black, { name: "Flat previews", preset: "classic", size: 9, colours: "host_black" });
    await sit(black, links[0]);
    await sit(white, links[1]);
    await agreeAndReady(id, black, white);
    for (const [p, colour] of [[black, "black"], [white, "white"]]) {
      await tap(p.page, 5, 5, 1);
      const pv = p.page.locator("[data-testid=board] [data-testid=preview] circle").first();
      await pv.waitFor();
      const box = await pv.boundingBox();
      const png = PNG.sync.read(await p.page.screenshot());
      const dpr = png.width / p.page.viewportSize().width;
      const at = (x, y) => {
        const i = (Math.round(y * dpr) * png.width + Math.round(x * dpr)) * 4;
        return [png.data[i], png.data[i + 1], png.data[i + 2]];
      };
      // The body is 17 board units across the radius, the dashed ring at 18 (3.5 wide), the
      // wood beyond 21: in px, from the body's box. The ring's dashes are its darkest pixels
      // on that circle; what identifies the preview is the more contrasting of ring and body.
      const [cx, cy, r] = [box.x + box.width / 2, box.y + box.height / 2, box.width / 2];
      const u = r / 17;
      const around = (radius, n = 48) => Array.from({ length: n }, (_, k) => at(cx + Math.cos((k / n) * 2 * Math.PI) * radius, cy + Math.sin((k / n) * 2 * Math.PI) * radius));
      const ringPx = around(18 * u).sort((a, b) => lum(a) - lum(b)).slice(0, 16);
      const [ringC, bodyC, wood] = [medianColour(ringPx), medianColour(around(9 * u, 16)), medianColour(around(23 * u))];
      const c = Math.max(contrast(ringC, wood), contrast(bodyC, wood));
      console.log(`[board] ${colour} preview on the flat 9×9 board: edge contrast ${c.toFixed(2)}:1`);
      assert.ok(c >= 3, `${colour} preview on wood ${c.toFixed(2)}:1`);
    }
    await white.page.screenshot({ path: `${ARTIFACTS}/board-flat-preview.png` });
  } finally {
    await black.close();
    await white.close();
  }
});
