// Governance as people meet it (003 §1.3–1.5, §9.7, §10.1): the administrator announces
// the site's defaults and adds a precedent on /admin/rules (the retention dry run beside
// them); anyone reads the new version of the common rules; a player's new-room form
// starts from the announced defaults and the version in force, and the agreement both
// players confirm shows the version, an agreed undo limit, the outside assistance and the
// retention.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE } from "./browser.mjs";
import { player, referee, sit, waitHydrated } from "./game.mjs";

const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

/// The page in `lang` on `viewport`: screenshotted, no catalogue key or unfilled parameter
/// shown, nothing wider than the window (as 07-texts checks the older screens).
async function readAs(p, path, lang, viewport, name) {
  await p.page.setViewportSize(VIEWPORTS[viewport]);
  await p.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
  await open(p, path);
  await p.page.screenshot({ path: `${ARTIFACTS}/governance-${name}-${lang}-${viewport}.png`, fullPage: true });
  const text = await p.page.evaluate(() => document.body.innerText);
  const keys = text.match(/(?<![\w./:-])[a-z][a-z_]*\.[a-z_][a-z_.]*[a-z_](?![\w/:-])/g) || [];
  assert.deepEqual(keys, [], `${name} ${lang} ${viewport} shows catalogue keys`);
  assert.ok(!text.includes("%{"), `${name} ${lang} ${viewport} has an unfilled parameter`);
  const [scroll, width] = await p.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${name} ${lang} ${viewport}: ${scroll} px wide in a ${width} px window`);
  await p.page.setViewportSize(VIEWPORTS.desktop);
  await p.context.addCookies([{ name: "sb_lang", value: "en", url: BASE }]);
  return text;
}

async function open(p, path) {
  await p.page.goto(BASE + path);
  await waitHydrated(p.page);
}

test("defaults announced, a precedent made a version, and a room agreed under it", async () => {
  const admin = await referee();
  const alice = await player("gov_alice");
  const bob = await player("gov_bob");
  try {
    // The administrator announces the defaults and adds a precedent.
    await open(admin, "/admin");
    await admin.page.click("[data-testid=to-governance]");
    await admin.page.waitForSelector("[data-testid=site-defaults]");
    await waitHydrated(admin.page);
    await admin.page.waitForSelector("[data-testid=dry-run]");
    await admin.page.fill("[data-testid=defaults-retention]", "365");
    await admin.page.fill("[data-testid=defaults-wait]", "45");
    await admin.page.fill("[data-testid=defaults-reasons]", "the club keeps records a year; counts may take 45 minutes");
    await admin.page.click("[data-testid=defaults-save]");
    await admin.page.waitForSelector("[data-testid=governance-done]");
    await admin.page.waitForFunction(() => /365/.test(document.querySelector("[data-testid=defaults-now]").innerText));
    await admin.page.fill("[data-testid=precedent-clause]", "003 §3.6");
    await admin.page.fill("[data-testid=precedent-text]", "A chain whose only two life spaces are both shared in seki is alive.");
    await admin.page.fill("[data-testid=precedent-reasons]", "decided this way in a disputed count; both players agreed the reading");
    await admin.page.click("[data-testid=precedent-add]");
    // The defaults' message is still on the page until the precedent's own replaces it.
    await admin.page.waitForFunction(() => /\d/.test(document.querySelector("[data-testid=governance-done]")?.innerText ?? ""));
    const made = await admin.page.innerText("[data-testid=governance-done]");
    const version = Number(made.match(/(\d+)/)[1]);
    assert.ok(version >= 2, made);
    await admin.page.screenshot({ path: `${ARTIFACTS}/governance-1-admin.png`, fullPage: true });

    // Anyone reads it: the version in force, the precedent under its clause, every version.
    await open(alice, "/rules/common");
    await alice.page.waitForSelector(`[data-testid=rules-shown][data-version='${version}'] [data-testid=rules-current]`);
    const clause = alice.page.locator("[data-testid=clause][data-clause='003 §3.6']");
    assert.match(await clause.innerText(), /both shared in seki is alive/);
    assert.ok((await alice.page.locator("[data-testid=rules-version-entry]").count()) >= 2);
    await clause.scrollIntoViewIfNeeded();
    await alice.page.screenshot({ path: `${ARTIFACTS}/governance-2-rules.png` });

    // The new-room form starts from what was announced and the version in force.
    await open(alice, "/rooms/new");
    await alice.page.waitForFunction((v) => document.querySelector("[data-testid=rules-version]")?.innerText.includes(String(v)), version);
    assert.equal(await alice.page.inputValue("[data-testid=retention-days]"), "365");
    assert.equal(await alice.page.inputValue("[data-testid=scoring-wait]"), "45");
    await alice.page.fill("[data-testid=room-name-input]", "agreed");
    await alice.page.selectOption("[data-testid=size]", "5");
    await alice.page.selectOption("[data-testid=colours]", "host_black");
    await alice.page.check("[data-testid=undo-limit-on]");
    await alice.page.fill("[data-testid=undo-limit]", "2");
    await alice.page.fill("[data-testid=special-notes]", "a tea break after move 50");
    await alice.page.click("[data-testid=assistant-add]");
    await alice.page.fill("[data-testid=assistant-name]", "Coach Han");
    await alice.page.selectOption("[data-testid=assistant-helps]", "guest");
    await alice.page.selectOption("[data-testid=assistant-extent]", "scoring");
    await alice.page.screenshot({ path: `${ARTIFACTS}/governance-3-new-room.png`, fullPage: true });
    // Out of the version's bounds: refused before play, naming the clause.
    await alice.page.fill("[data-testid=undo-limit]", "11");
    await alice.page.click("[data-testid=create]");
    await alice.page.waitForSelector("main p.error[role=alert]");
    assert.match(await alice.page.innerText("main p.error[role=alert]"), /003 §5\.1/);
    await alice.page.fill("[data-testid=undo-limit]", "2");
    await alice.page.click("[data-testid=create]");
    await alice.page.waitForSelector("[data-testid=invites]");
    const links = [await alice.page.getAttribute("[data-testid=invite-0]", "href"), await alice.page.getAttribute("[data-testid=invite-1]", "href")];
    const id = Number(new URL(links[0]).pathname.split("/").pop());
    const settings = (await (await fetch(`${BASE}/api/v1/rooms/${id}`)).json()).settings;
    assert.equal(settings.common_rules_version, version);
    assert.equal(settings.record_retention_days, 365);
    assert.equal(settings.scoring_deadline_s, 45 * 60);
    assert.deepEqual(settings.special_rules, [{ kind: "undo_limit", per_player: 2 }, { kind: "note", text: "a tea break after move 50" }]);
    assert.equal(settings.assistance.assistants[0].name, "Coach Han");

    // Both players read it in the agreement before they confirm.
    await sit(alice, links[0]);
    await sit(bob, links[1]);
    const text = await bob.page.innerText("main");
    for (const line of [`common rules ${version}`, "at most 2 undos per player", "Coach Han", "365 days after the end", "45 min"]) {
      assert.ok(text.includes(line), `the agreement shows ${line}`);
    }
    await bob.page.screenshot({ path: `${ARTIFACTS}/governance-4-agreement.png`, fullPage: true });

    // Every new screen in both languages, on a desktop and on a phone.
    for (const lang of ["ko", "en"]) {
      for (const vp of Object.keys(VIEWPORTS)) {
        const admin_ = await readAs(admin, "/admin/rules", lang, vp, "admin");
        assert.match(admin_, lang === "ko" ? /사이트 기본값/ : /Site defaults/);
        const rules = await readAs(alice, "/rules/common", lang, vp, "rules");
        assert.match(rules, lang === "ko" ? /공통 규칙/ : /Common rules/);
        const form = await readAs(alice, "/rooms/new", lang, vp, "new-room");
        assert.match(form, lang === "ko" ? /외부 도움 합의/ : /Outside assistance agreed/);
        const agreement = await readAs(bob, `/rooms/${id}`, lang, vp, "agreement");
        assert.match(agreement, lang === "ko" ? /기록 보존: 대국이 끝난 뒤 365일/ : /Record retention: 365 days/);
      }
    }
  } finally {
    for (const b of [admin, alice, bob]) await b.close();
  }
});
