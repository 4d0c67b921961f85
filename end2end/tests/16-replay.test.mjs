// Finished games and replay: a Classic game with an undo is resigned; the loser finds it
// in the archive by its filters and steps through it with the keyboard to move 10 — the
// undo shown as such, the stones, captures and clocks of each step — and the result at the
// end. Someone who may not read the record is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { agreeAndReady, createRoom, play, player, sit, until, waitHydrated } from "./game.mjs";

test("a finished game found in the archive and replayed to move 10", async () => {
  const alice = await player("replay_alice");
  const bob = await player("replay_bob");
  const carol = await player("replay_carol");
  try {
    const { id, links } = await createRoom(alice, { name: "Replay me", preset: "classic", size: 9, colours: "host_black" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    await agreeAndReady(id, alice, bob);
    const black = [[3, 3], [5, 3], [7, 3], [3, 7], [5, 7]];
    const white = [[3, 5], [7, 5], [5, 5], [7, 7], [1, 1]];
    for (let k = 0; k < 5; k++) {
      await play(alice, id, black[k][0], black[k][1], 1);
      await play(bob, id, white[k][0], white[k][1], 1);
      if (k === 1) {
        // White takes back its own last move with Black's consent (000 §8.2), then plays it again.
        await bob.page.click("[data-testid=request-undo]");
        await alice.page.click("[data-testid=undo-accept]");
        await until(id, (v) => v.move_number === 3, "undo applied");
        await play(bob, id, white[k][0], white[k][1], 1);
      }
    }
    await alice.page.click("[data-testid=resign]");
    await alice.page.click("[data-testid=confirm-yes]");
    await until(id, (v) => v.phase === "finished", "resigned");

    // The archive: Alice's lost Classic game, found by its filters; a filter it fails hides it.
    await alice.page.goto(BASE + "/games");
    await waitHydrated(alice.page);
    const row = alice.page.locator("[data-testid=archive-game]", { hasText: "Replay me" });
    await row.waitFor();
    assert.match(await row.innerText(), /replay_alice[\s\S]*replay_bob/);
    assert.match(await row.innerText(), /9×9/);
    await alice.page.selectOption("[data-testid=archive-outcome]", "won");
    await alice.page.click("[data-testid=archive-apply]");
    await alice.page.waitForSelector("[data-testid=archive-empty]");
    await alice.page.selectOption("[data-testid=archive-outcome]", "lost");
    await alice.page.selectOption("[data-testid=archive-preset]", "classic");
    await alice.page.fill("[data-testid=archive-player]", "REPLAY_BOB");
    await alice.page.click("[data-testid=archive-apply]");
    await row.waitFor();
    await alice.page.screenshot({ path: `${ARTIFACTS}/archive.png`, fullPage: true });

    // The replay opens at the end, with the result.
    await row.locator("[data-testid=archive-replay]").click();
    await alice.page.waitForURL(`${BASE}/rooms/${id}/replay`);
    await waitHydrated(alice.page);
    await alice.page.waitForSelector("[data-testid=replay-result]");
    assert.match(await alice.page.innerText("[data-testid=replay-result]"), /resign|불계/i);
    // The frame arrives after the step's words: wait for the board itself.
    const stonesAre = (n) => alice.page.waitForFunction(
      (k) => document.querySelectorAll("[data-testid=board] [data-testid^=stone-]").length === k, n);
    await stonesAre(10);

    // Home, then → step by step: the start, four moves, the undo, and on to move 10.
    await alice.page.keyboard.press("Home");
    await alice.page.waitForFunction(() => /Play begins|대국 시작/.test(document.querySelector("[data-testid=replay-step]").textContent));
    await stonesAre(0);
    const stepTo = async (n, text) => {
      for (let i = 0; i < n; i++) await alice.page.keyboard.press("ArrowRight");
      await alice.page.waitForFunction((t) => document.querySelector("[data-testid=replay-step]").textContent.includes(t), text);
    };
    await stepTo(4, "4. ");
    await stonesAre(4);
    await stepTo(1, "↶");
    await stonesAre(3);
    assert.match(await alice.page.innerText("[data-testid=replay-list] li.undo"), /White|백/);
    await stepTo(7, "10. ");
    await stonesAre(10);
    assert.match(await alice.page.innerText("[data-testid=replay-clocks]"), /\d+:\d\d/);
    assert.match(await alice.page.innerText("[data-testid=replay-captures]"), /0[\s\S]*0/);
    assert.equal(await alice.page.getAttribute("[data-testid=replay-step-12]", "aria-current"), "step");
    await alice.page.screenshot({ path: `${ARTIFACTS}/replay-move-10.png`, fullPage: true });
    await alice.page.keyboard.press("ArrowLeft");
    await alice.page.waitForFunction(() => document.querySelector("[data-testid=replay-step]").textContent.includes("9. "));
    // The replay and the archive in Korean on a phone, for people to look at.
    await alice.context.addCookies([{ name: "sb_lang", value: "ko", url: BASE }]);
    await alice.page.setViewportSize({ width: 390, height: 844 });
    await alice.page.goto(`${BASE}/rooms/${id}/replay`);
    await waitHydrated(alice.page);
    await alice.page.waitForSelector("[data-testid=replay-result]");
    assert.match(await alice.page.innerText("[data-testid=replay-step]"), /대국 종료/);
    await alice.page.screenshot({ path: `${ARTIFACTS}/replay-ko-phone.png`, fullPage: true });
    await alice.page.goto(BASE + "/games");
    await waitHydrated(alice.page);
    await row.waitFor();
    await alice.page.screenshot({ path: `${ARTIFACTS}/archive-ko-phone.png`, fullPage: true });

    // The opponent may replay it too; someone else may not (003 §8.1), nor an anonymous visitor.
    await bob.page.goto(`${BASE}/rooms/${id}/replay`);
    await bob.page.waitForSelector("[data-testid=replay-result]");
    await carol.page.goto(`${BASE}/rooms/${id}/replay`);
    await carol.page.waitForSelector("[data-testid=replay-error]");
    assert.match(await carol.page.innerText("[data-testid=replay-error]"), /approved|승인/);
    const anon = await fetch(`${BASE}/api/replay_frame`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ room_id: id, seq: 1 }),
    });
    assert.equal(anon.status, 401);
  } finally {
    await alice.close();
    await bob.close();
    await carol.close();
  }
});

test("an SGF record pasted in is stepped through; a broken one names the move", async () => {
  const reader = await player("sgf_reader");
  try {
    const page = reader.page;
    await page.goto(BASE + "/games");
    await waitHydrated(page);
    await page.click("[data-testid=sgf-link]");
    await page.waitForURL(`${BASE}/games/sgf`);
    await waitHydrated(page);
    await page.fill("[data-testid=sgf-text]", "(;GM[1]FF[4]SZ[9]PB[Lee]PW[Cho]RE[B+R];B[ee];W[cc];B[gc];W[];B[cg])");
    await page.click("[data-testid=sgf-show]");
    await page.waitForSelector("[data-testid=sgf-board]");
    assert.match(await page.innerText("[data-testid=sgf-info]"), /Lee[\s\S]*Cho[\s\S]*9×9[\s\S]*B\+R/);
    // It opens at the end: five moves, four stones (one pass).
    assert.match(await page.innerText("[data-testid=sgf-step]"), /5\. (Black|흑) C3/);
    assert.equal(await page.locator("[data-testid=sgf-board] .stone").count(), 4);
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=sgf-board] .stone").length === 0);
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
    assert.match(await page.innerText("[data-testid=sgf-step]"), /4\. (White|백) (passes|패스)/);
    await page.screenshot({ path: `${ARTIFACTS}/sgf-view.png`, fullPage: true });
    // White plays on Black's stone at move 2: refused, naming the move.
    await page.fill("[data-testid=sgf-text]", "(;GM[1]FF[4]SZ[9];B[ee];W[ee])");
    await page.click("[data-testid=sgf-show]");
    assert.match(await page.innerText("[data-testid=sgf-error]"), /move 2/);
    // A file opened from the device is read the same way, at once.
    await page.setInputFiles("[data-testid=sgf-file]", {
      name: "club.sgf", mimeType: "application/x-go-sgf",
      buffer: Buffer.from("(;GM[1]FF[4]SZ[13]PB[Park]PW[Kim];B[gg];W[dd];B[jj])"),
    });
    await page.waitForFunction(() => /Park/.test(document.querySelector("[data-testid=sgf-info]")?.innerText ?? ""));
    assert.match(await page.innerText("[data-testid=sgf-info]"), /Park[\s\S]*Kim[\s\S]*13×13/);
    assert.equal(await page.locator("[data-testid=sgf-board] .stone").count(), 3);
    assert.equal(await page.locator("[data-testid=sgf-error]").count(), 0);
    // A Korean server's file in EUC-KR (its CA[] says so): the names read as written.
    await page.setInputFiles("[data-testid=sgf-file]", {
      name: "tygem.sgf", mimeType: "application/x-go-sgf",
      buffer: Buffer.concat([
        Buffer.from("(;GM[1]FF[4]CA[EUC-KR]SZ[9]PB["), Buffer.from([0xb9, 0xda]), // 박
        Buffer.from("]PW["), Buffer.from([0xb1, 0xe8]), Buffer.from("];B[ee])"), // 김
      ]),
    });
    await page.waitForFunction(() => /박/.test(document.querySelector("[data-testid=sgf-info]")?.innerText ?? ""));
    assert.match(await page.innerText("[data-testid=sgf-info]"), /박[\s\S]*김[\s\S]*9×9/);
    // The page with a file opened, in both languages on a desktop and a phone.
    const euckr = Buffer.concat([
      Buffer.from("(;GM[1]FF[4]CA[EUC-KR]SZ[9]PB["), Buffer.from([0xb9, 0xda]),
      Buffer.from("]PW["), Buffer.from([0xb1, 0xe8]), Buffer.from("];B[ee];W[cc];B[gg])"),
    ]);
    for (const [lang, width, height, shape] of [["en", 1280, 900, "desktop"], ["ko", 1280, 900, "desktop"],
      ["en", 390, 844, "phone"], ["ko", 390, 844, "phone"]]) {
      await reader.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
      await page.setViewportSize({ width, height });
      await page.goto(BASE + "/games/sgf");
      await waitHydrated(page);
      await page.setInputFiles("[data-testid=sgf-file]", { name: "tygem.sgf", mimeType: "application/x-go-sgf", buffer: euckr });
      await page.waitForSelector("[data-testid=sgf-board]");
      await page.screenshot({ path: `${ARTIFACTS}/sgf-file-${lang}-${shape}.png`, fullPage: true });
    }
  } finally {
    await reader.close();
  }
});
