// The referee's console, two players, an administrator and a spectator in separate
// browsers: a Space dispute is claimed on the live queue and ruled with reasons citing two
// safe spaces (003 §3.2, §3.6); both players see the reasons; one objects; the ruling is
// confirmed; both consent; the referee confirms the statement (003 §2.7). Then a loss on
// time is objected to and cancelled, which restores the game (003 §5.7).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch } from "./browser.mjs";
import { agreeAndReady, createRoom, player, referee, sit, until, waitHydrated } from "./game.mjs";

async function command(p, id, body) {
  const r = await p.context.request.post(`${BASE}/api/v1/rooms/${id}/commands`, { data: body });
  assert.equal(r.status(), 200, `${JSON.stringify(body)} → ${await r.text()}`);
}

/// A move by `p` through the API; the opponent's open page acknowledges it.
async function move(p, id, x, y, z) {
  await command(p, id, { type: "move", at: { x, y, z } });
  await until(id, (v) => v.awaiting_ack === null, `move at ${x},${y},${z} acknowledged`);
}

async function open(p, path) {
  await p.page.goto(BASE + path);
  await waitHydrated(p.page);
}

/// Wide tables scroll in their own boxes: the page itself never scrolls sideways.
async function noSidewaysScroll(page, what) {
  const [scroll, width, widest] = await page.evaluate(() => {
    const w = window.innerWidth;
    // The outermost elements that reach past the window, to name the culprit.
    const past = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 1);
    const outer = past.filter((e) => !past.includes(e.parentElement)).slice(0, 3);
    const name = (e) => `${e.tagName.toLowerCase()}.${e.className}[${e.dataset.testid || ""}] ${Math.round(e.getBoundingClientRect().width)}px`;
    const far = [...document.querySelectorAll("body *")]
      .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right).slice(0, 3);
    return [document.documentElement.scrollWidth, w, [...outer, ...far].map(name).join(", ")];
  });
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide in a ${width} px window: ${widest}`);
}

/// `path` in Korean on a 390 px phone: a screenshot, and no catalogue key left unrendered.
async function koreanPhone(p, path, name) {
  await p.context.addCookies([{ name: "sb_lang", value: "ko", url: BASE }]);
  await p.page.setViewportSize({ width: 390, height: 844 });
  await open(p, path);
  await noSidewaysScroll(p.page, name);
  const text = await p.page.textContent("body");
  assert.doesNotMatch(text, /\b(desk|queue|referee|notice|verdict|hold|summary)\.[a-z_]+/, `${name}: a key shown as text`);
  await p.page.screenshot({ path: `${ARTIFACTS}/referee-${name}-ko-phone.png`, fullPage: true });
  await p.context.addCookies([{ name: "sb_lang", value: "en", url: BASE }]);
  await p.page.setViewportSize({ width: 1280, height: 860 });
}

test("a Space dispute: claimed, ruled with two cited spaces, objected, confirmed, reviewed", async () => {
  const alice = await player("ref_alice");
  const bob = await player("ref_bob");
  const admin = await referee();
  const watcher = await launch();
  try {
    const { id, links } = await createRoom(alice, { name: "Dispute", preset: "space", size: 5, colours: "host_black" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);
    // Black builds a chain with two separate eyes at 1,1,1 and 3,1,1; White plays far away.
    const black = [[2, 1, 1], [1, 2, 1], [2, 2, 1], [3, 2, 1], [4, 1, 1], [1, 1, 2], [2, 1, 2], [3, 1, 2], [4, 2, 1]];
    const white = [[5, 5, 5], [5, 5, 4], [5, 4, 5], [4, 5, 5], [5, 5, 3], [5, 3, 5], [3, 5, 5], [4, 4, 5], [4, 5, 4]];
    for (let i = 0; i < black.length; i++) {
      await move(alice, id, ...black[i]);
      await move(bob, id, ...white[i]);
    }
    await command(alice, id, { type: "pass" });
    await until(id, (v) => v.awaiting_ack === null, "pass acknowledged");
    await command(bob, id, { type: "pass" });
    await until(id, (v) => v.phase === "scoring", "scoring");
    await command(bob, id, { type: "mark", at: { x: 2, y: 1, z: 1 }, kind: "dead" });
    await command(bob, id, { type: "state_opinion", at: { x: 2, y: 1, z: 1 }, opinion: "dead", reasons: "the eyes can be filled from above" });
    // Black disputes in the room.
    await alice.page.fill("[data-testid=dispute-reason]", "my chain has two eyes");
    await alice.page.click("[data-testid=dispute]");
    await until(id, (v) => v.phase === "held", "held for the referee");

    const spectator = await watcher.context.newPage();
    await spectator.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(spectator);

    // The administrator's live queue shows it; the claim is seen.
    await open(admin, "/admin");
    await admin.page.waitForSelector("[data-testid=queue-item]");
    const item = admin.page.locator("[data-testid=queue-item]", { hasText: "Dispute" }).first();
    await item.locator("[data-testid=claim]").click();
    await admin.page.waitForSelector("[data-testid=claimed-by]:has-text('admin')");
    await admin.page.screenshot({ path: `${ARTIFACTS}/referee-1-queue.png`, fullPage: true });

    // The item view: the chain with its two life-space candidates; alive with one cited space
    // is refused; with both it is ruled.
    await open(admin, `/admin/rooms/${id}`);
    const chain = admin.page.locator("[data-testid=chain-2-1-1]");
    await chain.waitFor();
    assert.equal(await chain.locator("[data-testid=cite-space]").count(), 2, "two life-space candidates");
    await admin.page.selectOption("[data-testid=verdict-2-1-1]", "alive");
    await chain.locator("[data-testid=cite-space]").first().check();
    const form = admin.page.locator("[data-testid=ruling-form]");
    await form.locator("[data-testid=reasons]").fill("one eye only");
    await form.locator("[data-testid=send-ruling]").click();
    await admin.page.waitForSelector("[data-testid=desk-notice].error");
    assert.match(await admin.page.textContent("[data-testid=desk-notice]"), /two independent safe spaces/);
    await chain.locator("[data-testid=cite-space]").nth(1).check();
    await form.locator("[data-testid=reasons]").fill("two independent safe spaces: 1,1,1 and 3,1,1");
    await form.locator("[data-testid=send-ruling]").click();
    const ruled = await until(id, (v) => v.referee.rulings.length === 1 && v.phase === "scoring", "ruled");
    assert.equal(ruled.referee.rulings[0].chains[0].verdict.kind, "alive");
    await admin.page.screenshot({ path: `${ARTIFACTS}/referee-2-desk.png`, fullPage: true });
    await noSidewaysScroll(admin.page, "the desk");

    // Both players (and the spectator) see the ruling with its reasons.
    for (const page of [alice.page, bob.page, spectator]) {
      await page.waitForSelector("[data-testid=rulings] >> text=two independent safe spaces");
    }
    await bob.page.screenshot({ path: `${ARTIFACTS}/referee-3-ruling-player.png`, fullPage: true });
    await koreanPhone(admin, "/admin", "queue");
    await koreanPhone(admin, `/admin/rooms/${id}`, "desk");
    await koreanPhone(bob, `/rooms/${id}`, "ruling");

    // White objects once; the referee confirms with reasons.
    await bob.page.locator("[data-testid=object-ruling-form] [data-testid=reasons]").fill("the eye at 3,1,1 is false");
    await bob.page.click("[data-testid=object-ruling]");
    await until(id, (v) => v.phase === "held" && v.hold.kind === "ruling_objection", "objection");
    await alice.page.waitForSelector("[data-testid=hold-info]");
    await open(admin, `/admin/rooms/${id}`);
    const confirm = admin.page.locator("[data-testid=action-confirm-ruling]");
    await confirm.locator("[data-testid=reasons]").fill("3,1,1 is bordered by this chain alone");
    await confirm.locator("[data-testid=send-confirm-ruling]").click();
    const reissued = await until(id, (v) => v.phase === "scoring" && v.referee.rulings[0].confirmed, "confirmed");

    // Both consent; Space waits for the referee's review; then final.
    await alice.page.click("[data-testid=agree]");
    await bob.page.click("[data-testid=agree]");
    await until(id, (v) => v.phase === "awaiting_review", "awaiting review");
    await alice.page.waitForSelector("[data-testid=awaiting-review]");
    await open(admin, `/admin/rooms/${id}`);
    const review = admin.page.locator("[data-testid=action-confirm-statement]");
    await review.locator("[data-testid=reasons]").fill("counted again: correct");
    await review.locator("[data-testid=send-confirm-statement]").click();
    const done = await until(id, (v) => v.phase === "finished", "final");
    assert.equal(done.result.statement, reissued.scoring.statement);
    await alice.page.waitForSelector("[data-testid=final-score]");
    // The players were told.
    await open(alice, "/notifications");
    await alice.page.waitForSelector("[data-testid=notice-item]");
    await alice.page.screenshot({ path: `${ARTIFACTS}/referee-4-notifications.png`, fullPage: true });
  } finally {
    await alice.close();
    await bob.close();
    await admin.close();
    await watcher.close();
  }
});

test("a loss on time objected to and cancelled restores the game", async () => {
  const alice = await player("clock_alice");
  const bob = await player("clock_bob");
  const admin = await referee();
  try {
    // Classic 9×9 with byo-yomi 1 × 10 s and no main time, so that a turn runs out quickly.
    // The document's example room (Classic 9×9, host Black) with that clock.
    const doc = await (await fetch(`${BASE}/api/openapi.json`)).json();
    const body = doc.components.schemas.CreateRoomBody;
    const example = body.example ?? body.examples?.[0];
    assert.ok(example, "the document has an example room");
    const settings = { ...example.settings, time: { kind: "byoyomi", main_s: 0, period_s: 10, periods: 1 } };
    const r = await alice.context.request.post(`${BASE}/api/v1/rooms`, { data: { name: "Clock", settings } });
    assert.equal(r.status(), 201, await r.text());
    const { room_id: id, invite_codes: codes } = await r.json();
    await open(alice, `/rooms/${id}`);
    await open(bob, `/rooms/${id}`);
    await command(alice, id, { type: "join", code: codes[0] });
    await command(bob, id, { type: "join", code: codes[1] });
    await agreeAndReady(id, alice, bob);
    await move(alice, id, 5, 5, 1);
    const before = await until(id, (v) => v.clocks.running === "white", "White's clock runs");
    const lost = await until(id, (v) => v.phase === "finished", "White's time runs out");
    assert.equal(lost.result.reason, "time");
    await bob.page.locator("[data-testid=object-time-loss-form] [data-testid=reasons]").fill("my device never showed move 1");
    await bob.page.click("[data-testid=object-time-loss]");
    await until(id, (v) => v.under_review === true, "under review");
    await bob.page.waitForSelector("[data-testid=under-review]");
    await open(admin, `/admin/rooms/${id}`);
    await admin.page.waitForSelector("[data-testid=desk-timeline]");
    const decide = admin.page.locator("[data-testid=action-time-loss]");
    await admin.page.selectOption("[data-testid=time-loss-choice]", "cancel");
    await decide.locator("[data-testid=reasons]").fill("the acknowledgement arrived late (timeline)");
    await decide.locator("[data-testid=send-time-loss]").click();
    const restored = await until(id, (v) => v.phase === "waiting_ready", "restored");
    assert.deepEqual(restored.stones, before.stones);
    assert.equal(restored.to_move, "white");
    assert.equal(restored.result, null);
    await alice.page.click("[data-testid=ready]");
    await bob.page.click("[data-testid=ready]");
    await until(id, (v) => v.phase === "playing", "play resumed");
  } finally {
    await alice.close();
    await bob.close();
    await admin.close();
  }
});
