// The finishing touches of play (000 §9): sound for a stone and for the turn, the byo-yomi
// countdown — the last ten seconds counted with a sound each, in large numbers, the board's
// border changing colour, the periods as dots — and the sound switch remembered. Sounds are
// observed through `window.__sb_sounds`, not heard.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { agreeAndReady, createRoom, play, player, roomView, sit, waitHydrated } from "./game.mjs";

const sounds = (p) => p.page.evaluate(() => window.__sb_sounds || []);

test("byo-yomi counted down with sound, stones and the turn heard, the switch remembered", async () => {
  const alice = await player("touch_alice");
  const bob = await player("touch_bob");
  try {
    // A Classic 9×9 room whose byo-yomi starts at once: no main time, three 10-second periods.
    const made = await createRoom(alice, { name: "Template", preset: "classic", size: 9, colours: "host_black" });
    const settings = (await roomView(made.id)).settings;
    settings.time = { kind: "byoyomi", main_s: 0, period_s: 10, periods: 3 };
    const r = await alice.context.request.post(`${BASE}/api/v1/rooms`, { data: { name: "Countdown", settings } });
    assert.equal(r.status(), 201, await r.text());
    const { room_id: id, invite_codes: codes } = await r.json();
    await sit(alice, `${BASE}/rooms/${id}?code=${codes[0]}`);
    await sit(bob, `${BASE}/rooms/${id}?code=${codes[1]}`);
    await agreeAndReady(id, alice, bob);

    // Black's period runs: the last seconds in large numbers, the border marked, each second
    // sounded; the periods shown as dots.
    await alice.page.waitForSelector("[data-testid=countdown]");
    assert.ok(Number(await alice.page.textContent("[data-testid=countdown]")) <= 10);
    assert.equal(await alice.page.locator("main.room.counting").count(), 1);
    assert.match(await alice.page.textContent("[data-testid=clock-black]"), /●●●/);
    await alice.page.waitForFunction(() => (window.__sb_sounds || []).filter((s) => s.startsWith("count_")).length >= 2);
    assert.equal(await bob.page.locator("[data-testid=countdown]").count(), 0, "only the player whose clock it is");
    await alice.page.screenshot({ path: `${ARTIFACTS}/touches-countdown.png` });

    // Black plays: White hears the stone and that it is their turn.
    await play(alice, id, 5, 5, 1);
    await bob.page.waitForFunction(() => ["stone", "your_turn"].every((s) => (window.__sb_sounds || []).includes(s)));

    // Sound off (under "Animation and sound"): nothing more is played, and the choice
    // survives a reload.
    await bob.page.click("[data-testid=prefs] > summary");
    await bob.page.uncheck("[data-testid=sound]");
    const before = (await sounds(bob)).length;
    await bob.page.waitForTimeout(2500);
    assert.equal((await sounds(bob)).length, before, "silent while switched off");
    await bob.page.reload();
    await waitHydrated(bob.page);
    assert.equal(await bob.page.isChecked("[data-testid=sound]"), false, "remembered");
    await bob.page.click("[data-testid=prefs] > summary");
    await bob.page.check("[data-testid=sound]");
  } finally {
    for (const p of [alice, bob]) await p.close();
  }
});
