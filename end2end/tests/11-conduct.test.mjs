// Conduct as people meet it (003 §6.4–6.6), in separate browsers: a spectator reports
// another spectator's real-time advice from the room; the administrator finds the report on
// the dashboard, restricts that spectator's viewing at the room's desk, and the restricted
// spectator's open room page refuses them. Then the administrator warns a player, who
// appeals from their account page and reads the final decision there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { agreeAndReady, createRoom, player, referee, sit, until, waitHydrated } from "./game.mjs";

async function open(p, path) {
  await p.page.goto(BASE + path);
  await waitHydrated(p.page);
}

test("a spectator's report → viewing restricted; a warning appealed and decided", async () => {
  const alice = await player("cond_alice");
  const bob = await player("cond_bob");
  const carol = await player("cond_carol");
  const dave = await player("cond_dave");
  const admin = await referee();
  try {
    const { id, links } = await createRoom(alice, { name: "conduct", preset: "classic", size: 9, colours: "host_black" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);

    // Both spectators watch (signed in): dave is the one who advises.
    await open(dave, `/rooms/${id}`);
    await open(carol, `/rooms/${id}`);
    await carol.page.click("[data-testid=report-open]");
    await carol.page.selectOption("[data-testid=report-about]", "spectator");
    await carol.page.fill("[data-testid=report-spectator]", "cond_dave");
    await carol.page.selectOption("[data-testid=report-category]", "outside_assistance");
    await carol.page.fill("[data-testid=report-description]", "cond_dave tells Black where to play in the chat, move by move");
    await carol.page.click("[data-testid=report-send]");
    await carol.page.waitForSelector("[data-testid=report-sent]");
    await carol.page.screenshot({ path: `${ARTIFACTS}/conduct-1-report.png`, fullPage: true });
    assert.equal((await until(id, () => true, "view")).phase, "playing", "a report alone never stops the match");

    // The dashboard lists the case with its reporter; its link opens the desk with the case.
    await open(admin, "/admin");
    const item = admin.page.locator("[data-testid=report-case]", { hasText: "cond_dave" });
    await item.waitFor();
    assert.match(await item.innerText(), /cond_carol/);
    await admin.page.screenshot({ path: `${ARTIFACTS}/conduct-2-cases.png`, fullPage: true });
    await item.locator("[data-testid=case-desk]").click();
    await admin.page.waitForSelector("[data-testid=sanction-form]");
    await waitHydrated(admin.page);
    assert.notEqual(await admin.page.inputValue("[data-testid=sanction-case]"), "", "the case comes along");
    await admin.page.selectOption("[data-testid=sanction-target]", "spectator");
    await admin.page.fill("[data-testid=sanction-spectator]", "cond_dave");
    assert.equal(await admin.page.inputValue("[data-testid=sanction-penalty]"), "viewing_restricted");
    await admin.page.fill("[data-testid=sanction-form] [data-testid=reasons]", "real-time advice to Black, seen in the chat log");
    await admin.page.click("[data-testid=sanction-send]");
    await admin.page.waitForSelector("[data-testid=desk-sanction]");

    // Dave's open page is refused: the stream closes and the page says why.
    await dave.page.waitForSelector("main.page p.error[role=alert]", { timeout: 20_000 });
    assert.match(await dave.page.innerText("main.page p.error[role=alert]"), /restricted|제한/);
    await dave.page.screenshot({ path: `${ARTIFACTS}/conduct-3-restricted.png`, fullPage: true });
    // Everyone else still watches.
    await open(carol, `/rooms/${id}`);
    await carol.page.waitForSelector("[data-testid=sanctions]");

    // A warning for Black; she appeals from her account page and reads the outcome there.
    await admin.page.selectOption("[data-testid=sanction-target]", "black");
    await admin.page.selectOption("[data-testid=sanction-penalty]", "warning");
    await admin.page.selectOption("[data-testid=sanction-category]", "abusive_behaviour");
    await admin.page.fill("[data-testid=sanction-form] [data-testid=reasons]", "insults in the chat after move 1");
    await admin.page.click("[data-testid=sanction-send]");
    await admin.page.waitForSelector("[data-testid=desk-sanction][data-number='2']");
    await open(alice, "/account");
    const mine = alice.page.locator("[data-testid=my-sanction]");
    await mine.waitFor();
    assert.match(await mine.innerText(), /insults in the chat after move 1/);
    await mine.locator("[data-testid=appeal-evidence]").fill("The words were my opponent's; the chat log shows who wrote them.");
    await mine.locator("[data-testid=appeal-send]").click();
    await alice.page.waitForSelector("[data-testid=my-sanction] [data-status=under_review]");
    await alice.page.screenshot({ path: `${ARTIFACTS}/conduct-4-appealed.png`, fullPage: true });

    // The administrator decides at the desk; the decision applies without consent.
    await admin.page.reload();
    await waitHydrated(admin.page);
    const decide = admin.page.locator("[data-testid=desk-sanction][data-number='2'] [data-testid=appeal-decide-form]");
    await decide.waitFor();
    await decide.locator("[data-testid=reasons]").fill("the chat log shows the words were cond_bob's");
    await decide.locator("[data-testid=appeal-lift]").click();
    await admin.page.waitForSelector("[data-testid=desk-sanction][data-number='2'] [data-status=lifted]");
    await admin.page.screenshot({ path: `${ARTIFACTS}/conduct-5-desk.png`, fullPage: true });
    await alice.page.reload();
    await waitHydrated(alice.page);
    await alice.page.waitForSelector("[data-testid=my-sanction] [data-status=lifted]");
    assert.match(await alice.page.innerText("[data-testid=my-sanction]"), /the words were cond_bob's/);
    assert.match(await alice.page.innerText("[data-testid=appeal-closed]"), /already appealed|이미 이의/);
    await alice.page.screenshot({ path: `${ARTIFACTS}/conduct-6-decided.png`, fullPage: true });
  } finally {
    for (const b of [alice, bob, carol, dave, admin]) await b.close();
  }
});
