// The selection's life (003 §7.7) and the button messages (003 §2.6), in a Classic 9×9 room
// with two players: without a selection the player is asked for one; during the opponent's
// turn the selection is kept and the turn named; an opposing move, an undo and the change to scoring
// clear selection and preview; an occupied point and bad typed input clear it too (the
// latter naming the allowed range); moves during scoring are refused with the state; the
// group the opponent marked is ringed (000 §9).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { agreeAndReady, createRoom, inStep, pass, play, player, sit, tap, until, waitHydrated } from "./game.mjs";

const selected = async (p) => (await p.page.innerText("[data-testid=selection]")).trim();
const previewGone = (p) => p.page.waitForSelector("[data-testid=preview]", { state: "detached" });

test("selection and preview clear on the events of 003 §7.7; the buttons say why (003 §2.6)", async () => {
  const alice = await player("sel_alice");
  const bob = await player("sel_bob");
  try {
    const { id, links } = await createRoom(alice, { name: "Selection", preset: "classic", size: 9, colours: "host_black" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);

    // 2.6: nothing selected → asked to select an empty intersection; no Place stone yet.
    assert.match(await selected(alice), /empty point|빈 교차점/);
    assert.equal(await alice.page.locator("[data-testid=confirm-move]").count(), 0);

    // 2.6: White selects during Black's turn: told whose turn it is, the selection kept, no
    // Place stone offered.
    await tap(bob.page, 5, 5, 1);
    await bob.page.waitForSelector("[data-testid=preview]");
    assert.match(await selected(bob), /E5/);
    assert.match(await selected(bob), /opponent's turn|상대 차례/);
    assert.equal(await bob.page.locator("[data-testid=confirm-move]").count(), 0);
    // 7.7: Black's move clears White's selection and preview.
    await play(alice, id, 3, 3, 1);
    await previewGone(bob);
    assert.doesNotMatch(await selected(bob), /E5/);

    // 7.7: choosing an occupied point clears an earlier empty-point selection.
    await tap(bob.page, 5, 5, 1);
    await bob.page.waitForSelector("[data-testid=preview]");
    await tap(bob.page, 3, 3, 1);
    await previewGone(bob);
    assert.match(await bob.page.innerText("[data-testid=notice]"), /C7.*occupied|C7/);

    // 7.7: bad typed input names the allowed range and clears the previous selection.
    await tap(bob.page, 5, 5, 1);
    await bob.page.waitForSelector("[data-testid=preview]");
    await bob.page.fill("[data-testid=coord-y]", "12");
    await bob.page.click("[data-testid=coord-select]");
    await previewGone(bob);
    assert.match(await bob.page.innerText("[data-testid=notice]"), /12[\s\S]*1[\s\S]*9/);

    // 7.7: an undo clears the selection of the player who had one.
    await play(bob, id, 7, 7, 1);
    await tap(bob.page, 6, 6, 1);
    await bob.page.waitForSelector("[data-testid=preview]");
    await alice.page.click("[data-testid=request-undo]");
    await bob.page.click("[data-testid=undo-accept]");
    // Black's own move and White's reply go (000 §8.2).
    await until(id, (v) => v.move_number === 0, "undo applied");
    await previewGone(bob);

    // 7.7 and 2.6: the change to scoring clears the selection; a move is refused with the state.
    await until(id, (w) => w.undo === null, "no pending undo");
    await play(alice, id, 3, 3, 1);
    await play(bob, id, 7, 7, 1);
    await tap(bob.page, 6, 6, 1);
    await bob.page.waitForSelector("[data-testid=preview]");
    await pass(alice, id);
    await pass(bob, id);
    await until(id, (w) => w.phase === "scoring", "scoring");
    await previewGone(bob);
    // Alice's pass already cleared Bob's preview; wait for the page to hold the scoring too.
    await inStep(bob.page, id);
    assert.equal(await bob.page.locator("[data-testid=confirm-move]").count(), 0, "no moves while counting");
    assert.match(await bob.page.innerText("[data-testid=status]"), /Scoring|계가/i);

    // 000 §9: the group the opponent just marked is ringed for the other player only.
    await tap(alice.page, 7, 7, 1);
    await until(id, (w) => w.scoring && w.scoring.marks.length === 1, "marked");
    await bob.page.waitForSelector("[data-testid=changed-7-7-1]");
    assert.equal(await alice.page.locator("[data-testid^=changed-]").count(), 0, "not for the one who marked");
  } finally {
    await alice.close();
    await bob.close();
  }
});

test("a magnifier follows the finger on a 19×19 board on a phone (000 §9)", async () => {
  const alice = await player("loupe_alice");
  try {
    const { id } = await createRoom(alice, { name: "Loupe", preset: "classic", size: 19, colours: "host_black" });
    const page = alice.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(page);
    await page.locator("[data-testid=board]").scrollIntoViewIfNeeded();
    const board = await page.locator("[data-testid=board]").boundingBox();
    // The point D4 (x 4, y 16) sits at 4 and 16 of 20 cells across the board's width.
    const at = (x, y) => ({ clientX: board.x + (board.width * x) / 20, clientY: board.y + (board.height * y) / 20 });
    const touch = (type, x, y) =>
      page.dispatchEvent("[data-testid=board]", type, { pointerType: "touch", bubbles: true, isPrimary: true, ...at(x, y) });
    await touch("pointerdown", 4, 16);
    await page.waitForSelector("[data-testid=loupe]");
    const viewBox = async () => (await page.getAttribute("[data-testid=loupe]", "viewBox")).split(" ").map(Number);
    let [vx, vy, vw] = await viewBox();
    assert.deepEqual([vx + vw / 2, vy + vw / 2], [160, 640], "centred on D4's intersection");
    await page.screenshot({ path: `${ARTIFACTS}/loupe-phone.png` });
    await touch("pointermove", 10.2, 9.8);
    await page.waitForFunction(() => document.querySelector("[data-testid=loupe]").getAttribute("viewBox").startsWith("330 "));
    [vx, vy, vw] = await viewBox();
    assert.deepEqual([vx + vw / 2, vy + vw / 2], [400, 400], "follows to K10, snapped");
    await touch("pointerup", 10, 10);
    await page.waitForSelector("[data-testid=loupe]", { state: "detached" });
    // A mouse shows none.
    await page.dispatchEvent("[data-testid=board]", "pointerdown", { pointerType: "mouse", bubbles: true, ...at(4, 4) });
    assert.equal(await page.locator("[data-testid=loupe]").count(), 0);
  } finally {
    await alice.close();
  }
});
