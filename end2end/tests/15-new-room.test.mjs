// The new-room form: every setting of each preset, checked as it is typed, the problem shown
// beside its field, the summary both players agree to, and the room the server makes from
// it. A Classic 19×19 room with three handicap stones, Fischer time and Korean ko (the
// placement previewed and then played); a Space room on a 7×5×3 box with start coordinates
// below zero and different hours per side.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { agreeAndReady, player, roomView, sit, until, waitHydrated } from "./game.mjs";

async function newRoom(p, name) {
  await p.page.goto(BASE + "/rooms/new");
  await waitHydrated(p.page);
  await p.page.fill("[data-testid=room-name-input]", name);
}

async function created(page) {
  await page.click("[data-testid=create]");
  await page.waitForSelector("[data-testid=invites]");
  const links = [await page.getAttribute("[data-testid=invite-0]", "href"), await page.getAttribute("[data-testid=invite-1]", "href")];
  return { id: Number(new URL(links[0]).pathname.split("/").pop()), links };
}

test("a Classic 19×19 room with handicap 3, Fischer time and Korean ko, made on the form", async () => {
  const alice = await player("form_alice");
  const bob = await player("form_bob");
  try {
    await newRoom(alice, "Handicap three");
    const page = alice.page;
    await page.selectOption("[data-testid=preset]", "classic");
    // 000 §2: 19 by default, 9×9 recommended for beginners; komi 6.5 with territory.
    assert.equal(await page.inputValue("[data-testid=size]"), "19");
    assert.equal(await page.inputValue("[data-testid=komi]"), "6.5");
    await page.selectOption("[data-testid=scoring]", "area");
    assert.equal(await page.inputValue("[data-testid=komi]"), "7.5", "komi follows scoring");
    await page.selectOption("[data-testid=scoring]", "territory");

    // Three handicap stones: komi 0.5, the weaker player (the host) takes Black, nigiri off.
    await page.selectOption("[data-testid=handicap]", "3");
    assert.equal(await page.inputValue("[data-testid=komi]"), "0.5");
    assert.equal(await page.inputValue("[data-testid=colours]"), "host_black");
    assert.equal(await page.locator("[data-testid=colours] option[value=nigiri]").isDisabled(), true);
    const vertices = await page.$$eval("[data-testid=handicap-stone]", (cs) => cs.map((c) => c.dataset.vertex));
    assert.deepEqual(vertices, ["Q16", "D4", "Q4"], "000 §4: upper right, lower left, lower right");
    const previewed = await page.$$eval("[data-testid=handicap-stone]", (cs) =>
      cs.map((c) => [Number(c.getAttribute("cx")) / 10, Number(c.getAttribute("cy")) / 10]));

    await page.selectOption("[data-testid=ko]", "korean");
    await page.selectOption("[data-testid=time-kind]", "fischer");
    assert.equal(await page.inputValue("[data-testid=main-minutes]"), "20", "000 §2: 20 minutes on 19×19");
    await page.fill("[data-testid=increment]", "15");
    await page.selectOption("[data-testid=undo]", "1");

    // A value out of range is named beside its field and holds the button.
    await page.fill("[data-testid=increment]", "45");
    const beside = await page.locator("[data-testid=problem-time\\.increment_s]").innerText();
    assert.match(beside, /45[\s\S]*0 to 30 seconds[\s\S]*000 §2/);
    assert.equal(await page.isDisabled("[data-testid=create]"), true);
    await page.fill("[data-testid=komi]", "10.25");
    await page.waitForSelector("[data-testid=unreadable-komi]");
    await page.fill("[data-testid=komi]", "0.5");
    await page.fill("[data-testid=increment]", "15");
    await page.waitForSelector("[data-testid=form-problems]", { state: "detached" });

    const summary = await page.locator("[data-testid=summary-preview]").innerText();
    assert.match(summary, /19×19/);
    assert.match(summary, /Handicap 3|3점|치석 3/i);
    assert.match(summary, /Fischer/i);
    assert.match(summary, /Korean|한국/);
    await page.screenshot({ path: `${ARTIFACTS}/new-room-classic-handicap.png`, fullPage: true });

    const { id, links } = await created(page);
    const v0 = await roomView(id);
    assert.equal(v0.settings.handicap, 3);
    assert.equal(v0.settings.ko, "korean");
    assert.equal(v0.settings.komi_half_points, 1);
    assert.deepEqual(v0.settings.time, { kind: "fischer", main_s: 1200, increment_s: 15 });
    assert.deepEqual(v0.settings.undo, { limited: 1 });

    // Both seated and ready: the stones stand where the form showed them.
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);
    const v = await until(id, (w) => w.stones.length === 3, "handicap stones placed");
    assert.ok(v.stones.every(([, c]) => c === "black"));
    const placed = v.stones.map(([p]) => [p.x, p.y]).sort();
    assert.deepEqual(placed, previewed.sort());
    assert.equal(v.to_move, "white", "000 §4: White moves first after the handicap stones");
  } finally {
    await alice.close();
    await bob.close();
  }
});

test("a Space room on a 7×5×3 box below zero with different hours per side", async () => {
  const alice = await player("form_carol");
  const bob = await player("form_dave");
  try {
    await newRoom(alice, "Negative box");
    const page = alice.page;
    for (const [id, v] of [["x-start", "-3"], ["x-end", "3"], ["y-start", "0"], ["y-end", "4"], ["z-start", "5"], ["z-end", "7"]]) {
      await page.fill(`[data-testid=axis-${id}]`, v);
    }
    assert.match(await page.locator("[data-testid=box-points]").innerText(), /7 × 5 × 3 = 105/);
    assert.equal(await page.inputValue("[data-testid=size]"), "", "no longer a cube from 1");

    // An even length is refused beside the axis, with the clause.
    await page.fill("[data-testid=axis-x-end]", "4");
    assert.match(await page.locator("[data-testid=problem-board\\.x]").innerText(), /length 8[\s\S]*odd lengths 1 to 25[\s\S]*003 §1\.1/);
    assert.equal(await page.isDisabled("[data-testid=create]"), true);
    await page.fill("[data-testid=axis-x-end]", "3");

    await page.fill("[data-testid=hours-black]", "2");
    await page.fill("[data-testid=hours-white]", "6");
    assert.match(await page.locator("[data-testid=problem-time\\.white]").innerText(), /6[\s\S]*1 to 5 whole hours/);
    await page.fill("[data-testid=hours-white]", "3");
    await page.fill("[data-testid=komi]", "2.5");
    await page.selectOption("[data-testid=komi-to]", "black");
    await page.check("[data-testid=capture-bonus]");
    await page.selectOption("[data-testid=colours]", "host_black");
    // 003 §7.1: a kind of label per axis.
    await page.selectOption("[data-testid=labels]", "per_axis");
    await page.selectOption("[data-testid=labels-kind-x]", "english");
    await page.selectOption("[data-testid=labels-kind-y]", "korean");
    await page.waitForSelector("[data-testid=form-problems]", { state: "detached" });
    const summary = await page.locator("[data-testid=summary-preview]").innerText();
    assert.match(summary, /7×5×3/);
    assert.match(summary, /2[\s\S]*3/);
    await page.screenshot({ path: `${ARTIFACTS}/new-room-space-box.png`, fullPage: true });

    const { id, links } = await created(page);
    const s = (await roomView(id)).settings;
    assert.deepEqual(s.board, { x: { start: -3, end: 3 }, y: { start: 0, end: 4 }, z: { start: 5, end: 7 } });
    assert.deepEqual(s.time, { kind: "space_hours", black: 2, white: 3 });
    assert.equal(s.komi_half_points, 5);
    assert.equal(s.komi_to, "black");
    assert.equal(s.capture_bonus, true);
    assert.deepEqual(s.labels, { kind: "builtin", x: "english", y: "korean", z: "numeric" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);
    const v = await until(id, (w) => w.phase === "playing", "play starts");
    assert.equal(v.to_move, "black");
  } finally {
    await alice.close();
    await bob.close();
  }
});
