// Every sentence a player reads comes from the catalogue: the agreement, a game in play,
// scoring and the result, and the home page, in Korean and in English, on a desktop and on
// a 390×844 phone. No visible text may be a catalogue key, an unfilled parameter or empty
// where a sentence belongs. The screenshots are for people to read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch } from "./browser.mjs";
import { agreeAndReady, createRoom, pass, play, player, referee, roomView, sit, tap, until, waitHydrated } from "./game.mjs";

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
      const before = await p.page.evaluate(() => document.documentElement.lang);
      await p.page.click("[data-testid=lang-switch]");
      // The switch fetches the other language's texts first (i18n::catalogue).
      await p.page.waitForFunction((b) => document.documentElement.lang !== b, before);
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
    // once, outside the page's reactive language, would stay Korean). Korean by design: the
    // switch's own "한국어", the home page's bilingual logo "Space Baduk 공간 바둑", and the
    // new-room form's example of Korean labels "Korean (가, 나, 다…)".
    const korean = text.replace("한국어", "").replace("공간 바둑", "").replace("(가, 나, 다…)", "")
      .match(/[\uac00-\ud7a3]+/g) || [];
    assert.deepEqual(korean, [], `${name} ${viewport}: Korean left in the English page`);
  }
  return text;
}

/// Nothing sticks out sideways: the page is no wider than the window.
async function fits(p, what) {
  const [scroll, width] = await p.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide in a ${width} px window`);
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
        if (vp === "phone") {
          // 000 §9: on a phone every move button, resign too, is on the first screen.
          const [bottom, height] = await alice.page.evaluate(() => {
            window.scrollTo(0, 0);
            const r = document.querySelector("[data-testid=resign]").getBoundingClientRect();
            return [r.bottom, r.height];
          });
          assert.ok(height > 0, `${lang}: resign is shown`);
          assert.ok(bottom <= VIEWPORTS.phone.height, `${lang}: resign ends ${bottom} px down a ${VIEWPORTS.phone.height} px screen`);
        }
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

// The account pages and the new-room form, and the refusals they show, in each language:
// passwords that differ at sign-up, a setup link that does not hold, signed out and in.
test("sign-up, setup and the new-room form read in both languages, refusals included", async () => {
  const visitor = await launch();
  visitor.page = await visitor.context.newPage();
  const host = await player("texts_host");
  const refusal = async (p, form, fields, name, lang, vp) => {
    await waitHydrated(p.page);
    for (const [field, value] of Object.entries(fields)) await p.page.fill(`${form} input[name=${field}]`, value);
    await p.page.click(`${form} button[type=submit]`);
    const error = (await (await p.page.waitForSelector("p.error[role=alert]")).innerText()).trim();
    await p.page.screenshot({ path: `${ARTIFACTS}/texts-${name}-${lang}-${vp}.png`, fullPage: true });
    return error;
  };
  try {
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        await look(visitor, "/signup", lang, vp, "6-signup");
        // (A too-short name never leaves the browser: the field's own minlength stops it.)
        const differ = await refusal(visitor, "#signup-form",
          { username: "texts_newcomer", password: "a long password", password_again: "another long password" },
          "6-signup-refused", lang, vp);
        assert.equal(differ, lang === "ko" ? "비밀번호 확인: 두 비밀번호가 다릅니다" : "Password again: the two passwords differ");
        await look(visitor, "/setup?token=not-a-token", lang, vp, "7-setup");
        const used = await refusal(visitor, "#setup-form",
          { username: "nobody", password: "a long password", password_again: "a long password" }, "7-setup-refused", lang, vp);
        assert.equal(used, lang === "ko" ? "설정 링크가 올바르지 않거나 이미 쓰였습니다" : "The setup link is invalid or has already been used");
        await look(host, "/rooms/new", lang, vp, "8-new-room");
      }
    }
  } finally {
    await visitor.close();
    await host.close();
  }
});

test("the computer's screens read in both languages and fit a phone", async () => {
  const dana = await player("texts_dana");
  const admin = await referee();
  try {
    // A 9×9 room against the computer, made on the form; it answers the first move.
    await look(dana, "/rooms/new", "en", "desktop", "8-new-computer");
    await dana.page.fill("[data-testid=room-name-input]", "Dana against the computer");
    await dana.page.selectOption("[data-testid=who]", "computer");
    await dana.page.selectOption("[data-testid=preset]", "classic");
    await dana.page.selectOption("[data-testid=size]", "9");
    await dana.page.selectOption("[data-testid=your-colour]", "black");
    await dana.page.selectOption("[data-testid=level]", "1");
    await dana.page.click("[data-testid=create]");
    await dana.page.waitForURL(/\/rooms\/\d+$/);
    const id = Number(new URL(dana.page.url()).pathname.split("/").pop());
    await waitHydrated(dana.page);
    await dana.page.click("[data-testid=ready]");
    await until(id, (v) => v.phase === "playing", "play starts");
    await tap(dana.page, 5, 5, 1);
    await dana.page.waitForSelector("[data-testid=preview]");
    await dana.page.click("[data-testid=confirm-move]");
    await until(id, (w) => w.move_number >= 2 && w.awaiting_ack === null, "the computer answered");
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        await look(dana, "/rooms/new", lang, vp, "8-new-computer");
        await dana.page.selectOption("[data-testid=who]", "computer");
        await dana.page.waitForSelector("[data-testid=level]");
        await dana.page.screenshot({ path: `${ARTIFACTS}/texts-8-new-computer-${lang}-${vp}.png`, fullPage: true });
        await fits(dana, `new room ${lang} ${vp}`);
        const room = await look(dana, `/rooms/${id}`, lang, vp, "8-vs-computer");
        assert.match(room, lang === "ko" ? /기초 컴퓨터/ : /the basic computer/);
        await fits(dana, `room ${lang} ${vp}`);
        const t = await look(admin, "/admin/learning", lang, vp, "9-learning");
        assert.match(t, lang === "ko" ? /프로그램 대국/ : /Program matches/);
        await fits(admin, `learning ${lang} ${vp}`);
      }
    }
  } finally {
    await dana.close();
    await admin.close();
  }
});

test("the account screens read in both languages and fit a phone", async () => {
  const erin = await player("texts_erin");
  const admin = await referee();
  try {
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        const mine = await look(erin, "/account", lang, vp, "10-account");
        assert.match(mine, lang === "ko" ? /지금 이 로그인/ : /this sign-in/);
        await fits(erin, `account ${lang} ${vp}`);
        const all = await look(admin, "/admin/accounts", lang, vp, "10-accounts");
        assert.match(all, /texts_erin/);
        if (vp === "phone") {
          // Without the header row each number says what it counts.
          const label = await admin.page.evaluate(() =>
            getComputedStyle(document.querySelector("[data-testid=account-row] td[data-label]"), "::before").content);
          assert.match(label, lang === "ko" ? /로그인/ : /Sign-ins/, "the phone labels the sign-in count");
        }
        await fits(admin, `accounts ${lang} ${vp}`);
        await look(erin, "/reset?token=none", lang, vp, "10-reset");
        await fits(erin, `reset ${lang} ${vp}`);
        await look(admin, "/admin/log", lang, vp, "10-log");
        await fits(admin, `log ${lang} ${vp}`);
      }
    }
  } finally {
    await erin.close();
    await admin.close();
  }
});
