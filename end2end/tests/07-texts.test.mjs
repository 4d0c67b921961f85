// Every sentence a player reads comes from the catalogue (issue 10 point 1): the agreement,
// a game in play, scoring and the result, and the home page, in Korean and in English, on a
// desktop and on a 390×844 phone. No visible text may be a catalogue key, an unfilled
// parameter or empty where a sentence belongs. The screenshots are for people to read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { agreeAndReady, createRoom, pass, play, player, roomView, sit, until, waitHydrated } from "./game.mjs";

const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

/// Opens `path` in `lang` and `viewport` (or, with no path, stays on the page and switches its
/// language with the page's own switch: a player who reloads during play is reconnecting, and
/// the match waits for both to be ready), screenshots it and checks its visible text.
async function look(p, path, lang, viewport, name) {
  await p.page.setViewportSize(VIEWPORTS[viewport]);
  if (path) {
    await p.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
    await p.page.goto(BASE + path);
    await waitHydrated(p.page);
  } else {
    for (let i = 0; i < 3 && (await p.page.evaluate(() => document.documentElement.lang)) !== lang; i++) {
      await p.page.click("[data-testid=lang-switch]");
    }
    assert.equal(await p.page.evaluate(() => document.documentElement.lang), lang, "the switch reaches " + lang);
  }
  await p.page.waitForTimeout(300); // the live stream's first view
  await p.page.screenshot({ path: `${ARTIFACTS}/texts-${name}-${lang}-${viewport}.png`, fullPage: true });
  const text = await p.page.evaluate(() => document.body.innerText);
  // A key missing from the catalogue is rendered as itself: `result.score`, `error.undo.no_move`.
  const keys = text.match(/(?<![\w./:-])[a-z][a-z_]*\.[a-z_][a-z_.]*[a-z_](?![\w/:-])/g) || [];
  assert.deepEqual(keys, [], `${name} ${lang} ${viewport} shows catalogue keys`);
  assert.ok(!text.includes("%{"), `${name} ${lang} ${viewport} has an unfilled parameter`);
  if (lang === "en") {
    // Every text follows the language, also when switched without a reload (a text rendered
    // once, outside the page's reactive language, would stay Korean). Only the switch's own
    // "한국어" and the home page's bilingual logo "Space Baduk 공간 바둑" are Korean by design.
    const korean = text.replace("한국어", "").replace("공간 바둑", "").match(/[\uac00-\ud7a3]+/g) || [];
    assert.deepEqual(korean, [], `${name} ${viewport}: Korean left in the English page`);
  }
  return text;
}

test("the agreement, play, scoring and the result read as sentences in both languages", async () => {
  const alice = await player("texts_alice");
  const bob = await player("texts_bob");
  try {
    const { id, links } = await createRoom(alice, { name: "Texts", preset: "classic", size: 9, colours: "host_black" });
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        const t = await look(bob, `/rooms/${id}`, lang, vp, "1-agreement");
        assert.match(t, lang === "ko" ? /덤 6\.5 \(백\)/ : /Komi 6\.5 to White/, "the settings summary");
      }
    }
    await alice.page.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(alice.page);
    await bob.page.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(bob.page);
    await agreeAndReady(id, alice, bob);
    await play(alice, id, 3, 3, 1);
    await play(bob, id, 7, 7, 1);
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        const t = await look(alice, null, lang, vp, "2-play");
        assert.match(t, lang === "ko" ? /대국 중/ : /Playing/);
        // The pass and resignation dialogs ask in words and answer Yes / No (예 / 아니요).
        for (const what of ["pass", "resign"]) {
          await alice.page.click(`[data-testid=${what}]`);
          const box = await alice.page.waitForSelector("[data-testid=confirm-box]");
          await alice.page.screenshot({ path: `${ARTIFACTS}/texts-2-confirm-${what}-${lang}-${vp}.png` });
          const question = (await box.innerText()).trim();
          assert.ok(!/\b[a-z_]+\.[a-z_.]+\b/.test(question) && !question.includes("%{"), `${what} ${lang}: ${question}`);
          assert.equal((await alice.page.innerText("[data-testid=confirm-yes]")).trim(), lang === "ko" ? "예" : "Yes");
          assert.equal((await alice.page.innerText("[data-testid=confirm-no]")).trim(), lang === "ko" ? "아니요" : "No");
          await alice.page.click("[data-testid=confirm-no]");
          await alice.page.waitForSelector("[data-testid=confirm-box]", { state: "detached" });
        }
      }
    }
    await alice.page.setViewportSize(VIEWPORTS.desktop);
    await pass(alice, id);
    await pass(bob, id);
    const scoring = await until(id, (v) => v.phase === "scoring", "scoring");
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        await look(bob, null, lang, vp, "3-scoring");
      }
    }
    const n = scoring.scoring.statement;
    for (const p of [alice, bob]) {
      const r = await p.context.request.post(`${BASE}/api/v1/rooms/${id}/commands`, { data: { type: "consent", statement: n } });
      assert.equal(r.status(), 200, await r.text());
    }
    const done = await until(id, (v) => v.phase === "finished", "finished");
    assert.equal(done.result.reason, "score");
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        const t = await look(alice, `/rooms/${id}`, lang, vp, "4-result");
        // One stone each and no territory: komi 6.5 decides (집 under territory, 점 under area).
        assert.match(t, lang === "ko" ? /백 6(집 반|\.5점) 승/ : /White wins by 6\.5 points/, "the result sentence");
        await look(alice, "/", lang, vp, "5-home");
      }
    }
  } finally {
    await alice.close();
    await bob.close();
  }
});
