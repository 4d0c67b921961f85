// Finding a game: a player opens a challenge on the new-room form and waits in its room; a
// second player takes it from the home page's list with one click; both confirm and play; an
// anonymous spectator finds the game among the live games; each player's home page sorts it
// by whether it waits for them. The lobby read in Korean and English on a desktop and a
// phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch, waitFrames } from "./browser.mjs";
import { play, player, until, waitHydrated } from "./game.mjs";

const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

async function home(p) {
  await p.page.goto(BASE + "/");
  await waitHydrated(p.page);
}

test("an open challenge taken from the list, watched live, sorted in each player's games", async () => {
  const alice = await player("lobby_alice");
  const bob = await player("lobby_bob");
  const watcher = await launch();
  try {
    // Alice opens a Classic 9×9 challenge: she is seated at once and waits in the room.
    await alice.page.goto(BASE + "/rooms/new");
    await waitHydrated(alice.page);
    await alice.page.fill("[data-testid=room-name-input]", "Lobby challenge");
    await alice.page.selectOption("[data-testid=access]", "open");
    await alice.page.selectOption("[data-testid=preset]", "classic");
    await alice.page.selectOption("[data-testid=size]", "9");
    await alice.page.selectOption("[data-testid=colours]", "host_black");
    await alice.page.click("[data-testid=create]");
    await alice.page.waitForURL(/\/rooms\/\d+$/);
    const id = Number(new URL(alice.page.url()).pathname.split("/").pop());
    await waitHydrated(alice.page);
    await alice.page.waitForSelector("[data-testid=cancel-room]");
    assert.deepEqual((await until(id, (v) => v.seats[0] === "lobby_alice", "alice seated")).seats, ["lobby_alice", null]);

    // Bob finds it on the home page with its time and rules, and joins with one click.
    await home(bob);
    const row = bob.page.locator("[data-testid=challenge]", { hasText: "Lobby challenge" });
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /lobby_alice/);
    assert.match(text, /Byo-yomi|초읽기/i);
    await bob.page.screenshot({ path: `${ARTIFACTS}/lobby-open-challenge.png`, fullPage: true });
    await row.locator("[data-testid=join-challenge]").click();
    await bob.page.waitForURL(`${BASE}/rooms/${id}`);
    await waitHydrated(bob.page);
    await until(id, (v) => v.seats[1] === "lobby_bob", "bob seated");
    await home(alice);
    assert.equal(await alice.page.locator("[data-testid=challenge]", { hasText: "Lobby challenge" }).count(), 0,
      "a taken challenge leaves the list");
    // Alice's game waits for her confirmation.
    await alice.page.locator("[data-testid=games-waiting]", { hasText: "Lobby challenge" }).waitFor();

    // Both confirm and are ready; Black plays.
    await alice.page.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(alice.page);
    for (const p of [alice, bob]) await p.page.click("[data-testid=confirm-settings]:not([disabled])");
    for (const p of [alice, bob]) await p.page.click("[data-testid=ready]");
    await until(id, (v) => v.phase === "playing", "both ready");
    await play(alice, id, 3, 3, 1);

    // Anyone sees it among the live games, with the players and the move number.
    const spectator = await watcher.context.newPage();
    await spectator.goto(BASE + "/");
    await waitHydrated(spectator);
    const live = spectator.locator("[data-testid=live-game]", { hasText: "Lobby challenge" });
    await live.waitFor();
    assert.match(await live.innerText(), /lobby_alice[\s\S]*lobby_bob[\s\S]*(move 1|1수)/);
    await live.locator("a").click();
    await spectator.waitForURL(`${BASE}/rooms/${id}`);

    // White (bob) is to move: the game waits for him, and is under way for alice.
    await home(bob);
    await bob.page.locator("[data-testid=games-waiting]", { hasText: "Lobby challenge" }).waitFor();
    await home(alice);
    await alice.page.locator("[data-testid=my-games]", { hasText: "Lobby challenge" }).waitFor();

    // The home page in both languages, on a desktop and a phone: no catalogue key shows and
    // nothing is wider than the window.
    for (const lang of ["ko", "en"]) {
      for (const [viewport, size] of Object.entries(VIEWPORTS)) {
        await alice.page.setViewportSize(size);
        await alice.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
        await home(alice);
        await alice.page.locator("[data-testid=live-game]", { hasText: "Lobby challenge" }).waitFor();
        // The board's renderer is a chunk of its own that arrives after hydration: the
        // picture waits for its first frame, as a player's eye would.
        await waitFrames(alice.page);
        await alice.page.screenshot({ path: `${ARTIFACTS}/lobby-home-${lang}-${viewport}.png`, fullPage: true });
        const body = await alice.page.evaluate(() => document.body.innerText);
        const keys = body.match(/(?<![\w./:-])lobby\.[a-z_]+/g) || [];
        assert.deepEqual(keys, [], `${lang} ${viewport} shows catalogue keys`);
        assert.ok(!body.includes("%{"), `${lang} ${viewport} has an unfilled parameter`);
        const [scroll, width] = await alice.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        assert.ok(scroll <= width, `${lang} ${viewport}: ${scroll} px wide in a ${width} px window`);
      }
    }
    await alice.context.addCookies([{ name: "sb_lang", value: "en", url: BASE }]);
  } finally {
    for (const p of [alice, bob, watcher]) await p.close();
  }
});

test("the creator cancels an open challenge before anyone joins", async () => {
  const carol = await player("lobby_carol");
  try {
    await carol.page.goto(BASE + "/rooms/new");
    await waitHydrated(carol.page);
    await carol.page.fill("[data-testid=room-name-input]", "Cancelled challenge");
    await carol.page.selectOption("[data-testid=access]", "open");
    await carol.page.click("[data-testid=create]");
    await carol.page.waitForURL(/\/rooms\/\d+$/);
    await home(carol);
    const row = carol.page.locator("[data-testid=challenge]", { hasText: "Cancelled challenge" });
    await row.waitFor();
    assert.equal(await row.locator("[data-testid=join-challenge]").count(), 0, "one's own challenge is not joined");
    await row.locator("[data-testid=cancel-challenge]").click();
    await carol.page.waitForFunction(() => ![...document.querySelectorAll("[data-testid=challenge]")]
      .some((e) => e.innerText.includes("Cancelled challenge")));
  } finally {
    await carol.close();
  }
});
