// A whole Space game on a 5×5×5 box through the UI: the 3D whole-board view and the
// region view side by side, selection by tapping the region view, by the 3D view and by
// X/Y/Z fields, layer changes, an illegal attempt, an undo, passes, a dead chain marked,
// both agreeing; the spectator sees it live.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch, waitFrames } from "./browser.mjs";
import { agreeAndReady, createRoom, inStep, pass, play, player, referee, roomView, sit, tap, until, waitHydrated } from "./game.mjs";

/// Moves the region view to layer `z` with the layer buttons.
async function toLayer(page, z) {
  for (let i = 0; i < 10; i++) {
    const now = Number((await page.textContent("[data-testid=layer]")).replace(/\D+/g, ""));
    if (now === z) return;
    await page.click(now < z ? "[data-testid=layer-up]" : "[data-testid=layer-down]");
  }
  throw new Error(`could not reach layer ${z}`);
}

test("a Space game on a 5×5×5 box from invitation to the agreed result", async () => {
  const alice = await player("alice3d");
  const bob = await player("bob3d");
  const watcher = await launch();
  try {
    const { id, links } = await createRoom(alice, { name: "Space 5", preset: "space", size: 5, colours: "host_black" });
    const created = await roomView(id);
    assert.deepEqual([created.settings.board.x.end, created.settings.board.z.end], [5, 5]);
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);
    await waitFrames(alice.page, 1);

    const spectator = await watcher.context.newPage();
    await spectator.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(spectator);

    // Black: tap the region view on layer 3 and confirm.
    await toLayer(alice.page, 3);
    await play(alice, id, 3, 3, 3);
    await alice.page.screenshot({ path: `${ARTIFACTS}/space-1-first-move.png` });

    // White: select by coordinates (003 §7.3) — first a value out of range, with its range.
    await bob.page.fill("[data-testid=coord-x]", "9");
    await bob.page.fill("[data-testid=coord-y]", "1");
    await bob.page.fill("[data-testid=coord-z]", "1");
    await bob.page.click("[data-testid=coord-select]");
    assert.match(await bob.page.textContent("[data-testid=notice]"), /1.5/);
    await bob.page.fill("[data-testid=coord-x]", "1");
    await bob.page.click("[data-testid=coord-select]");
    await bob.page.waitForSelector("[data-testid=preview]", { state: "attached" });
    const before = (await roomView(id)).move_number;
    await bob.page.click("[data-testid=confirm-move]");
    await until(id, (v) => v.move_number === before + 1 && v.awaiting_ack === null, "white 1,1,1");

    // Black surrounds the corner 5,5,5 on three sides: 4,5,5 · 5,4,5 · 5,5,4.
    await toLayer(alice.page, 5);
    await play(alice, id, 4, 5, 5);
    await play(bob, id, 1, 2, 1);
    await play(alice, id, 5, 4, 5);
    await play(bob, id, 1, 3, 1);
    await toLayer(alice.page, 4);
    await play(alice, id, 5, 5, 4);
    await spectator.waitForSelector("[data-testid=move-list] >> text=5,5,4");

    // Whole-group mode (003 §7.6): the region fits the reference group — the last move,
    // 5,5,4, alone — with a margin of one line: X 4–5, Y 4–5, Z 3–5.
    const regionInfo = (re) =>
      alice.page.waitForFunction((src) => new RegExp(src).test(document.querySelector("[data-testid=region-info]").textContent), re.source);
    await alice.page.click("[data-testid=mode-group]");
    await regionInfo(/^Reference 4,4,3 · 2×2×3 lines/);
    // Manual bounds stop group following. Z 1–2 does not hold the active layer (4), so the
    // range moves just far enough to include it (003 §7.6); back on layer 2 it is 1–2 again.
    await alice.page.click("[data-testid=mode-manual]");
    for (const [field, value] of [["bound-z-lo", "1"], ["bound-z-hi", "2"]]) {
      await alice.page.fill(`[data-testid=${field}]`, value);
      await alice.page.dispatchEvent(`[data-testid=${field}]`, "change");
    }
    await regionInfo(/^Reference 4,4,3 · 2×2×2 lines/);
    await toLayer(alice.page, 2);
    await regionInfo(/^Reference 4,4,1 · 2×2×2 lines/);
    await alice.page.click("[data-testid=mode-local]");
    await regionInfo(/^Reference 1,1,1 · 5×5×5 lines/);

    // White into the corner: suicide, refused with coordinate and reason.
    await toLayer(bob.page, 5);
    await tap(bob.page, 5, 5, 5);
    await bob.page.click("[data-testid=confirm-move]");
    await bob.page.waitForSelector("[data-testid=notice].error");
    assert.match(await bob.page.textContent("[data-testid=notice]"), /5,5,5.*(suicide|자충수)/);
    await bob.page.screenshot({ path: `${ARTIFACTS}/space-2-illegal.png` });

    // Undo accepted: White plays, asks, Black agrees.
    await toLayer(bob.page, 1);
    await play(bob, id, 2, 1, 1);
    await bob.page.click("[data-testid=request-undo]");
    await alice.page.click("[data-testid=undo-accept]");
    await until(id, (v) => v.to_move === "white" && !v.stones.some(([p]) => p.x === 2 && p.y === 1 && p.z === 1), "undo");
    await inStep(bob.page, id);

    // A tap on the 3D view takes what is seen there: on a stone, that stone (the box's
    // centre, 3,3,3, at the canvas' centre in the opening view: occupied, so nothing is
    // selected); elsewhere the empty point drawn there. A drag only rotates.
    const canvas = await bob.page.$("[data-testid=board-canvas]");
    const box = await canvas.boundingBox();
    await bob.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await bob.page.waitForFunction(() => /3,3,3/.test(document.querySelector("[data-testid=notice]")?.textContent || ""));
    // The renderer says where each point is drawn; an empty one clear of every stone's disc.
    await bob.page.evaluate(() => document.querySelector("[data-testid=board-canvas]").setAttribute("data-probe", "points"));
    await bob.page.evaluate(() => document.querySelector("[data-testid=board-canvas]").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" })));
    await bob.page.evaluate(() => document.querySelector("[data-testid=board-canvas]").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" })));
    await bob.page.waitForFunction(() => JSON.parse(document.querySelector("[data-testid=board-canvas]").dataset.projection || "{}").points?.length === 125);
    const projection = JSON.parse(await canvas.getAttribute("data-projection"));
    // An empty point drawn clear of every stone's disc and of every other point.
    const taken = new Set(projection.stones.map((s) => s.at.join(",")));
    const clear = projection.points.find(([x, y, z, sx, sy]) => !taken.has(`${x},${y},${z}`)
      && sx > 10 && sy > 10 && sx < box.width - 10 && sy < box.height - 10
      && projection.stones.every((s) => Math.hypot(s.x - sx, s.y - sy) > s.r + 8)
      && projection.points.every(([ox, oy, oz, px, py]) => (ox === x && oy === y && oz === z) || Math.hypot(px - sx, py - sy) > 8));
    assert.ok(clear, "an empty point is drawn clear of the stones");
    const name = clear.slice(0, 3).join(",");
    await bob.page.mouse.click(box.x + clear[3], box.y + clear[4]);
    await bob.page.waitForFunction((n) => document.querySelector("[data-testid=selection]").textContent.includes(n), name);
    await bob.page.mouse.move(box.x + 50, box.y + 50);
    await bob.page.mouse.down();
    await bob.page.mouse.move(box.x + 200, box.y + 120, { steps: 5 });
    await bob.page.mouse.up();
    assert.ok((await bob.page.textContent("[data-testid=selection]")).includes(name), "a rotation drag does not select");
    await bob.page.screenshot({ path: `${ARTIFACTS}/space-3-3d-selection.png` });

    // The region view is a second 3D view with its own direction and zoom (003 §7.5–7.6);
    // on a 5×5×5 box its local-ten box is the whole box. The whole board's drag did not turn
    // it, so a tap on its centre finds the stone there, 3,3,3, as the whole view did.
    const attr = async (sel, name) => Number(await bob.page.getAttribute(`[data-testid=${sel}]`, name));
    await bob.page.fill("[data-testid=coord-x]", "4");
    await bob.page.fill("[data-testid=coord-y]", "4");
    await bob.page.fill("[data-testid=coord-z]", "4");
    await bob.page.click("[data-testid=coord-select]");
    await bob.page.waitForFunction(() => /4,4,4/.test(document.querySelector("[data-testid=selection]").textContent));
    await bob.page.click("[data-testid=region-3d]");
    const regionCanvas = await bob.page.$("[data-testid=region-canvas]");
    await bob.page.waitForFunction(() => document.querySelector("[data-testid=region-canvas]").clientWidth > 100);
    await regionCanvas.scrollIntoViewIfNeeded();
    await waitFrames(bob.page, 1, "[data-testid=region-canvas]");
    assert.notEqual(await attr("region-canvas", "data-yaw"), await attr("board-canvas", "data-yaw"));
    const rbox = await regionCanvas.boundingBox();
    assert.equal(await bob.page.locator("[data-testid=notice]").count(), 0, "the selection cleared the notice");
    await bob.page.mouse.click(rbox.x + rbox.width / 2, rbox.y + rbox.height / 2);
    await bob.page.waitForFunction(() => /3,3,3/.test(document.querySelector("[data-testid=notice]")?.textContent || ""));
    // Zoom the region only; then match its direction to the whole board's: the direction
    // is copied, the zoom is not.
    const wholeDistance = await attr("board-canvas", "data-distance");
    const regionDistance = await attr("region-canvas", "data-distance");
    await bob.page.mouse.move(rbox.x + rbox.width / 2, rbox.y + rbox.height / 2);
    await bob.page.mouse.wheel(0, -400);
    await bob.page.waitForFunction(
      (d) => Number(document.querySelector("[data-testid=region-canvas]").dataset.distance) < d,
      regionDistance,
    );
    assert.equal(await attr("board-canvas", "data-distance"), wholeDistance, "each view keeps its own zoom");
    const zoomed = await attr("region-canvas", "data-distance");
    await bob.page.click("[data-testid=match-from-whole]");
    await bob.page.waitForFunction(() => {
      const [w, r] = ["board-canvas", "region-canvas"].map((t) => document.querySelector(`[data-testid=${t}]`).dataset);
      return w.yaw === r.yaw && w.pitch === r.pitch;
    });
    assert.equal(await attr("region-canvas", "data-distance"), zoomed, "direction match copies the direction only");
    await bob.page.screenshot({ path: `${ARTIFACTS}/space-3c-region-3d.png` });
    // 003 §7.1–7.2: the whole view names its reference point and ticks along each axis,
    // placed on screen by the renderer (not left at their off-screen start).
    const whole = ".canvas-wrap:has([data-testid=board-canvas])";
    assert.equal(await bob.page.innerText(`${whole} [data-testid=tick-origin]`), "1,1,1");
    for (const axis of ["x", "y", "z"]) {
      assert.ok(await bob.page.locator(`${whole} [data-testid=tick-${axis}]`).count() >= 2, axis);
    }
    await bob.page.waitForFunction((sel) => {
      const t = document.querySelector(`${sel} [data-testid=tick-origin]`);
      return t && parseFloat(t.style.left) > 0 && parseFloat(t.style.top) > 0;
    }, whole);

    // Region-selection mode (003 §7.3): a drag over the whole view marks a rectangle; its
    // reference is a stone's point (one is drawn largest), whose layer becomes the active
    // one; the selection stays and the board does not turn.
    await toLayer(bob.page, 2); // no stones on layer 2
    const selectedBefore = await bob.page.textContent("[data-testid=selection]");
    await bob.page.click("[data-testid=region-select]");
    await bob.page.mouse.move(box.x + 5, box.y + 5);
    await bob.page.mouse.down();
    await bob.page.mouse.move(box.x + box.width - 5, box.y + box.height - 5, { steps: 6 });
    await bob.page.mouse.up();
    const stoneLayers = (await roomView(id)).stones.map(([p]) => p.z);
    await bob.page.waitForFunction(() => !/Z = 2$/.test(document.querySelector("[data-testid=layer]").textContent));
    const layer = Number((await bob.page.textContent("[data-testid=layer]")).replace(/\D+/g, ""));
    assert.ok(stoneLayers.includes(layer), `the reference is a stone's point (layer ${layer} of ${stoneLayers})`);
    assert.equal(await bob.page.textContent("[data-testid=selection]"), selectedBefore, "a region drag is not a selection");
    await bob.page.screenshot({ path: `${ARTIFACTS}/space-3b-region-drag.png` });
    await bob.page.click("[data-testid=region-select]");

    await pass(bob, id);
    await pass(alice, id);
    await until(id, (v) => v.phase === "scoring", "scoring");

    // Black marks White's three-stone chain dead (the whole chain, 003 §3.4).
    await toLayer(alice.page, 1);
    await alice.page.click("[data-testid=mark-dead]");
    await tap(alice.page, 1, 1, 1);
    const marked = await until(id, (v) => v.scoring && v.scoring.marks.length === 1, "mark");
    assert.equal(marked.scoring.score.dead_stones.length, 3);
    await alice.page.waitForSelector("[data-testid=chain-details]");
    await alice.page.screenshot({ path: `${ARTIFACTS}/space-4-scoring.png`, fullPage: true });
    const n = marked.scoring.statement;
    await alice.page.click("[data-testid=agree]");
    await bob.page.click("[data-testid=agree]");
    // 003 §2.7 (review required, the Space default): the referee confirms before it is final.
    await until(id, (v) => v.phase === "awaiting_review", "awaiting review");
    const admin = await referee();
    const confirmed = await admin.context.request.post(`${BASE}/api/v1/rooms/${id}/commands`, {
      data: { type: "admin_confirm_statement", statement: n, reasons: "counted again: correct" },
    });
    assert.equal(confirmed.status(), 200, await confirmed.text());
    await admin.close();
    const done = await until(id, (v) => v.phase === "finished", "finished");
    assert.equal(done.result.statement, n);
    assert.equal(done.result.winner, "black");
    await alice.page.waitForSelector("[data-testid=final-score]");
    await alice.page.screenshot({ path: `${ARTIFACTS}/space-5-result.png`, fullPage: true });
    await spectator.waitForSelector("[data-testid=final-score]");
    await spectator.screenshot({ path: `${ARTIFACTS}/space-6-spectator.png`, fullPage: true });
    const record = await alice.context.request.get(`${BASE}/api/v1/rooms/${id}/record`);
    assert.equal(record.status(), 200);
  } finally {
    await alice.close();
    await bob.close();
    await watcher.close();
  }
});
