// A whole Classic 9×9 game through the UI: two players in their own browsers and an
// anonymous spectator. Selection and confirm, an illegal attempt with its coordinate and
// reason, an undo accepted, passes, a dead chain marked, both agreeing to the same
// statement, the result — and the spectator seeing the moves live.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch } from "./browser.mjs";
import { agreeAndReady, createRoom, pass, play, player, roomView, sit, tap, until, waitHydrated } from "./game.mjs";

test("a classic 9×9 game from invitation to the agreed result", async () => {
  const alice = await player("alice9");
  const bob = await player("bob9");
  const watcher = await launch();
  try {
    const { id, links } = await createRoom(alice, { name: "Classic 9", preset: "classic", size: 9, colours: "host_black" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);

    // Opened as the installed app (the manifest's start URL), the home page goes straight
    // into the player's game.
    const app = await bob.context.newPage();
    await app.goto(`${BASE}/?source=pwa`);
    await app.waitForURL(`${BASE}/rooms/${id}`);
    await app.close();

    const spectator = await watcher.context.newPage();
    await spectator.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(spectator);
    assert.equal(await spectator.locator("[data-testid=confirm-move]").count(), 0, "spectators get no controls");

    // Nothing selected: the player is asked to select an empty point, and Place stone is not
    // offered until one is (003 §2.6).
    assert.match(await alice.page.textContent("[data-testid=selection]"), /empty point|빈 교차점/i);
    assert.equal(await alice.page.locator("[data-testid=confirm-move]").count(), 0, "no Place stone without a point");

    // Black A2 (x1,y8), White E5, Black B1 (x2,y9): A1 becomes a suicide point for White.
    await play(alice, id, 1, 8, 1);
    await alice.page.screenshot({ path: `${ARTIFACTS}/classic-1-first-move.png` });
    await play(bob, id, 5, 5, 1);
    await play(alice, id, 2, 9, 1);
    // The spectator sees the stones live.
    await spectator.waitForSelector("[data-testid=stone-2-9-1]");

    // An illegal point says why at once, on the tap (000 §9); confirming anyway is refused
    // with coordinate and reason, selection kept (003 §2.5).
    await tap(bob.page, 1, 9, 1);
    await bob.page.waitForSelector("[data-testid=notice].error");
    assert.match(await bob.page.textContent("[data-testid=notice]"), /A1.*(suicide|자충수)/, "explained before confirming");
    await bob.page.click("[data-testid=confirm-move]");
    await bob.page.waitForSelector("[data-testid=notice].error");
    const refusal = await bob.page.textContent("[data-testid=notice]");
    assert.match(refusal, /A1/, "named as the board names it (003 §7.1)");
    assert.match(refusal, /suicide|자충수/);
    assert.match(await bob.page.textContent("[data-testid=selection]"), /A1/);
    await bob.page.screenshot({ path: `${ARTIFACTS}/classic-2-illegal.png` });
    await spectator.waitForSelector("[data-testid=move-list] li.illegal");

    // An undo accepted (000 §8.2): White plays, asks to take its own move back, Black agrees.
    await play(bob, id, 7, 3, 1);
    await bob.page.click("[data-testid=request-undo]");
    await alice.page.waitForSelector("[data-testid=undo-accept]");
    await alice.page.screenshot({ path: `${ARTIFACTS}/classic-3-undo-asked.png` });
    await alice.page.click("[data-testid=undo-accept]");
    await until(id, (v) => v.move_number === 3 && !v.stones.some(([p]) => p.x === 7 && p.y === 3), "undo applied");
    await bob.page.waitForSelector("[data-testid=stone-7-3-1]", { state: "detached" });

    // White plays elsewhere. Black asks to take back its own last move after White's reply:
    // two moves go, and Black is to move (000 §8.2).
    await play(bob, id, 7, 7, 1);
    await alice.page.click("[data-testid=request-undo]");
    await bob.page.waitForSelector("[data-testid=undo-accept]");
    assert.match(await bob.page.textContent("[data-testid=undo-request]"), /two moves|두 수/);
    await bob.page.screenshot({ path: `${ARTIFACTS}/classic-3b-two-move-undo.png` });
    await bob.page.click("[data-testid=undo-accept]");
    const back = await until(id, (v) => v.move_number === 2, "two moves taken back");
    assert.equal(back.to_move, "black");
    assert.deepEqual(back.undos_used, [1, 1]);
    await alice.page.waitForSelector("[data-testid=stone-7-7-1]", { state: "detached" });
    await play(alice, id, 2, 9, 1);
    await play(bob, id, 7, 7, 1);
    // A request can be withdrawn; like a refused one it is not asked again for that move.
    await alice.page.click("[data-testid=request-undo]");
    await alice.page.click("[data-testid=undo-cancel]");
    await until(id, (v) => v.undo === null, "request withdrawn");
    await alice.page.click("[data-testid=request-undo]");
    await alice.page.waitForSelector("[data-testid=notice].error");
    assert.equal((await roomView(id)).undo, null, "not asked again for the same move");

    // Both pass: scoring (003 §2.7). After Black's pass White is told that passing ends play.
    await pass(alice, id);
    await bob.page.waitForSelector("[data-testid=pass-guidance]");
    assert.match(await bob.page.textContent("[data-testid=pass-guidance]"), /pass too|나도 쉬면/);
    await pass(bob, id);
    await until(id, (v) => v.phase === "scoring", "scoring");
    await alice.page.waitForSelector("[data-testid=scoring]");

    // Black marks White's lone stones dead. 000 §5.5: a mark takes the whole group — both
    // stones, joined through empty points — in one change, with a new statement number.
    await alice.page.click("[data-testid=mark-dead]");
    await tap(alice.page, 5, 5, 1);
    const marked = await until(id, (v) => v.scoring && v.scoring.marks.length === 2, "the group marked");
    assert.equal(marked.scoring.statement, 2, "statements 1 (entering), 2");
    assert.deepEqual(marked.scoring.score.dead_stones.map((p) => [p.x, p.y]).sort(), [[5, 5], [7, 7]]);
    const n = marked.scoring.statement;
    await alice.page.waitForSelector(`text=${n}`);
    await alice.page.screenshot({ path: `${ARTIFACTS}/classic-4-scoring.png` });

    // Both agree to the same statement: the result is final.
    await alice.page.click("[data-testid=agree]");
    await until(id, (v) => v.scoring && v.scoring.consents[0] === n, "black consents");
    await bob.page.waitForSelector("[data-testid=agree]");
    await bob.page.click("[data-testid=agree]");
    const done = await until(id, (v) => v.phase === "finished", "finished");
    assert.equal(done.result.winner, "black");
    assert.equal(done.result.statement, n);
    await alice.page.waitForSelector("[data-testid=final-score]");
    await spectator.waitForSelector("[data-testid=status] >> text=/Black|흑/");
    await alice.page.screenshot({ path: `${ARTIFACTS}/classic-5-result.png`, fullPage: true });
    await spectator.screenshot({ path: `${ARTIFACTS}/classic-6-spectator.png`, fullPage: true });
    const list = await spectator.textContent("[data-testid=move-list]");
    assert.match(list, /✗/, "the illegal attempt is in the spectator's list, flagged");

    // The record downloads for a player, as SGF too.
    const sgf = await alice.context.request.get(`${BASE}/api/v1/rooms/${id}/record.sgf`);
    assert.equal(sgf.status(), 200);
    assert.match(await sgf.text(), /SZ\[9\]/);
    const anon = await fetch(`${BASE}/api/v1/rooms/${id}/record`);
    assert.equal(anon.status, 401);
    assert.equal((await roomView(id)).phase, "finished");
  } finally {
    await alice.close();
    await bob.close();
    await watcher.close();
  }
});
