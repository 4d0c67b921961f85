// The basic computer and local learning through the UI: a player creates a 9×9 game
// against the computer on the new-room form, plays it to the agreed result (the computer
// answers every move, passes after the player and consents to the count), and an
// administrator trains a model and sees the held-out metrics drawn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { player, referee, roomView, tap, until, waitHydrated } from "./game.mjs";

test("a player plays a 9×9 game against the computer to the end", async () => {
  const carol = await player("carol9c");
  try {
    const page = carol.page;
    await page.goto(BASE + "/rooms/new");
    await waitHydrated(page);
    await page.fill("[data-testid=room-name-input]", "Against the computer");
    await page.selectOption("[data-testid=who]", "computer");
    await page.selectOption("[data-testid=preset]", "classic");
    await page.selectOption("[data-testid=size]", "9");
    await page.selectOption("[data-testid=your-colour]", "black");
    await page.selectOption("[data-testid=level]", "1");
    await page.fill("[data-testid=move-ms]", "200");
    await page.screenshot({ path: `${ARTIFACTS}/computer-1-form.png`, fullPage: true });
    await page.click("[data-testid=create]");
    await page.waitForURL(/\/rooms\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    await waitHydrated(page);
    const v0 = await roomView(id);
    assert.equal(v0.settings.mode.kind, "vs_computer");
    assert.equal(v0.settings.mode.computer.model.version, 1);
    assert.match(await page.textContent("[data-testid=player-white]"), /computer|컴퓨터/i);
    await page.click("[data-testid=ready]");
    await until(id, (v) => v.phase === "playing", "play starts");

    // Black's moves on free points; each time the computer answers and the page shows it.
    const points = [[3, 3], [7, 7], [3, 7], [7, 3], [5, 5], [5, 3], [3, 5]];
    for (const [x, y] of points) {
      const v = await until(id, (v) => v.to_move === "black" && v.awaiting_ack === null, "black to move");
      if (v.stones.some(([p]) => p.x === x && p.y === y)) continue;
      const hinted = (v.hints?.illegal ?? []).some(([p]) => p.x === x && p.y === y);
      if (hinted) continue;
      await tap(page, x, y, 1);
      await page.waitForSelector("[data-testid=preview]");
      await page.click("[data-testid=confirm-move]");
      await until(id, (w) => w.move_number >= v.move_number + 2 && w.awaiting_ack === null, "the computer answered");
    }
    await page.screenshot({ path: `${ARTIFACTS}/computer-2-playing.png` });
    // The player passes; the computer passes too, proposes its marks and consents.
    await page.click("[data-testid=pass]");
    await page.click("[data-testid=confirm-yes]");
    const s = await until(id, (v) => v.phase === "scoring" && v.scoring.consents[1] === v.scoring.statement, "the computer consented");
    await page.waitForSelector("[data-testid=agree]");
    await page.click("[data-testid=agree]");
    const done = await until(id, (v) => v.phase === "finished", "finished");
    assert.equal(done.result.reason, "score");
    assert.equal(done.result.statement, s.scoring.statement);
    await page.waitForSelector("[data-testid=final-score]");
    assert.match(await page.textContent("[data-testid=status]"), /vs computer|컴퓨터 상대/);
    await page.screenshot({ path: `${ARTIFACTS}/computer-3-result.png`, fullPage: true });
  } finally {
    await carol.close();
  }
});

test("an administrator trains a model and sees the chart", async () => {
  const admin = await referee();
  try {
    const page = admin.page;
    await page.goto(BASE + "/admin/learning");
    await waitHydrated(page);
    await page.waitForSelector("[data-testid=model-row]");
    await page.fill("[data-testid=epochs]", "5");
    await page.check("[data-testid=confirm-pause]");
    await page.fill("[data-testid=pause-reasons]", "Training the basic computer on finished games");
    await page.click("[data-testid=start-training]");
    await page.waitForSelector("[data-testid=trained-model]", { timeout: 60_000 });
    const series = await page.getAttribute("[data-testid=series-accuracy]", "points");
    assert.equal(series.trim().split(/\s+/).length, 6, `epochs 0–5 drawn: ${series}`);
    assert.match(await page.textContent("[data-testid=learning]"), /prove|증거/);
    await page.screenshot({ path: `${ARTIFACTS}/learning-1-trained.png`, fullPage: true });
    // The new model is listed beside the old ones.
    await page.reload();
    await waitHydrated(page);
    assert.ok((await page.locator("[data-testid=model-row]").count()) >= 2);
  } finally {
    await admin.close();
  }
});

test("an administrator runs a program match and reads the tally", async () => {
  const admin = await referee();
  try {
    const page = admin.page;
    await page.goto(BASE + "/admin/learning");
    await waitHydrated(page);
    await page.waitForSelector("[data-testid=program-matches]");
    // Level 2 against level 1, both quick, two games with colours swapped.
    await page.fill("[data-testid='programs.side_a-ms']", "100");
    await page.fill("[data-testid='programs.side_b-ms']", "100");
    await page.fill("[data-testid=series-games]", "2");
    await page.click("[data-testid=start-series]");
    await page.waitForSelector("[data-testid=series-game]");
    // 003 §12.4: a person reviews each count. The table links the waiting game to its desk;
    // the administrator confirms the auto-agreed statement, and the next game begins.
    const tally = () => page.textContent("[data-testid=series-tally]");
    const deadline = Date.now() + 120_000;
    while (!/2 of 2|2판 끝남/.test(await tally())) {
      assert.ok(Date.now() < deadline, `the series did not finish: ${await tally()}`);
      const review = page.locator("[data-testid=series-review]");
      if (await review.count()) {
        const id = Number((await review.first().getAttribute("href")).split("/").pop());
        const v = await roomView(id);
        // The table is polled each second: a game already confirmed may still show its link.
        if (v.phase !== "awaiting_review") {
          await page.waitForTimeout(300);
          continue;
        }
        const n = v.scoring.statement;
        const r = await admin.context.request.post(`${BASE}/api/v1/rooms/${id}/commands`, {
          data: { type: "admin_confirm_statement", statement: n, reasons: "Reviewed: the programs' marks are right" },
        });
        assert.equal(r.status(), 200, await r.text());
      }
      await page.waitForTimeout(500);
    }
    assert.equal(await page.locator("[data-testid=series-game]").count(), 2);
    const rows = await page.locator("[data-testid=series-game]").allTextContents();
    assert.match(rows.join("\n"), /auto-agreed|자동 합의|resign|time/);
    await page.locator("[data-testid=program-matches]").screenshot({ path: `${ARTIFACTS}/programs-1-tally.png` });
  } finally {
    await admin.close();
  }
});
