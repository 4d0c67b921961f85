// Accounts as people use them: a player sees where they are signed in, ends a sign-in and
// changes their password; an administrator issues a one-time reset link that the owner
// uses, disables the account (signing in is then refused with the reason) and enables it
// again; every action is in the administrators' log.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch } from "./browser.mjs";
import { player, referee, waitHydrated } from "./game.mjs";

const PASSWORD = "a long test password";
const NEWER = "a newer test passphrase";
const RESET = "the reset test passphrase";

async function withPage(b) {
  b.page = await b.context.newPage();
  return b;
}

const session = async (b) => (await b.context.request.get(BASE + "/api/v1/session")).status();

test("sign-ins, a password change, a reset link, disabling and the log", async () => {
  const alice = await player("acct_alice");
  const phone = await withPage(await launch());
  const admin = await referee();
  const owner = await withPage(await launch());
  try {
    const r = await phone.context.request.post(BASE + "/api/v1/session", { data: { username: "acct_alice", password: PASSWORD } });
    assert.equal(r.status(), 200);

    // Her sign-ins: this one marked, the phone's with an End button.
    const page = alice.page;
    await page.goto(BASE + "/account");
    await waitHydrated(page);
    await page.waitForSelector("[data-testid=login]");
    assert.equal(await page.locator("[data-testid=login]").count(), 2);
    assert.equal(await page.locator("[data-testid=this-login]").count(), 1);
    await page.screenshot({ path: `${ARTIFACTS}/account-1-sign-ins.png`, fullPage: true });
    await page.click("[data-testid=end-login]");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=login]").length === 1);
    assert.equal(await session(phone), 401, "the phone is signed out");

    // A wrong current password is refused beside the form; the right one changes it.
    const change = async (current) => {
      await page.fill("#password-form [name=current_password]", current);
      await page.fill("#password-form [name=new_password]", NEWER);
      await page.fill("#password-form [name=new_password_again]", NEWER);
      await page.click("#password-form button[type=submit]");
    };
    await change("not my password at all");
    await page.waitForSelector("#password-form ~ .error");
    assert.match(await page.innerText("#password-form ~ .error"), /current password/i);
    await change(PASSWORD);
    await page.waitForSelector("[data-testid=password-changed]");
    await page.screenshot({ path: `${ARTIFACTS}/account-2-password-changed.png`, fullPage: true });

    // The administrator issues a reset link (reasons required) and the owner uses it.
    const desk = admin.page;
    await desk.goto(BASE + "/admin/accounts");
    await waitHydrated(desk);
    const row = () => desk.locator("[data-testid=account-row][data-name=acct_alice]");
    await row().locator("[data-testid=account-act]").click();
    await row().locator("[data-testid=account-reset]").click();
    await row().locator(".error").waitFor();
    assert.match(await row().locator(".error").innerText(), /Reasons|이유/);
    await row().locator("[data-testid=account-reasons]").fill("forgot the password; asked in person at the club");
    await row().locator("[data-testid=account-reset]").click();
    const link = new URL((await row().locator("[data-testid=reset-path]").innerText()).trim());
    assert.equal(link.origin, new URL(BASE).origin, "the whole link, to give to the owner");
    assert.match(link.pathname + link.search, /^\/reset\?token=[0-9a-f]{48}$/);
    await desk.screenshot({ path: `${ARTIFACTS}/account-3-reset-link.png`, fullPage: true });

    await owner.page.goto(link.href);
    await waitHydrated(owner.page);
    await owner.page.fill("#reset-form [name=password]", RESET);
    await owner.page.fill("#reset-form [name=password_again]", RESET);
    await owner.page.click("#reset-form button[type=submit]");
    await owner.page.waitForSelector("[data-testid=reset-done]");
    assert.match(await owner.page.innerText("[data-testid=reset-done]"), /acct_alice/);
    await owner.page.screenshot({ path: `${ARTIFACTS}/account-4-reset-done.png`, fullPage: true });
    assert.equal(await session(alice), 401, "a reset ends every sign-in");

    // Disabled: signing in on the home page is refused with the reason.
    await row().locator("[data-testid=account-reasons]").fill("shared the account with a stronger player");
    await row().locator("[data-testid=account-state-change]").click();
    await desk.waitForFunction(() =>
      /disabled|사용 중지/.test(document.querySelector("[data-testid=account-row][data-name=acct_alice] [data-testid=account-state]")?.innerText || ""));
    await owner.page.goto(BASE + "/");
    await waitHydrated(owner.page);
    await owner.page.fill("#signin-user", "acct_alice");
    await owner.page.fill("#signin-pass", RESET);
    await owner.page.click("#signin-form button[type=submit]");
    await owner.page.waitForSelector("[data-testid=signin-error]");
    assert.match(await owner.page.innerText("[data-testid=signin-error]"), /disabled|사용을 중지/);
    await owner.page.screenshot({ path: `${ARTIFACTS}/account-5-disabled.png` });

    // Enabled again, she signs in; the log lists the three actions, newest first.
    await row().locator("[data-testid=account-act]").click();
    await row().locator("[data-testid=account-reasons]").fill("explained; one warning is enough");
    await row().locator("[data-testid=account-state-change]").click();
    await desk.waitForFunction(() =>
      /active|사용 중$/.test(document.querySelector("[data-testid=account-row][data-name=acct_alice] [data-testid=account-state]")?.innerText || ""));
    await owner.page.click("#signin-form button[type=submit]");
    await owner.page.waitForSelector("[data-testid=signed-in]");
    // The administrators' log lists the three actions, newest first; its filter narrows it.
    await desk.goto(BASE + "/admin/log");
    await waitHydrated(desk);
    const aboutAlice = () => desk.locator("[data-testid=audit-row]").evaluateAll((rows) =>
      rows.filter((r) => r.innerText.includes("acct_alice")).map((r) => r.dataset.action));
    assert.deepEqual((await aboutAlice()).slice(0, 3), ["account_enabled", "account_disabled", "reset_link_issued"]);
    await desk.screenshot({ path: `${ARTIFACTS}/account-6-log.png`, fullPage: true });
    await desk.selectOption("[data-testid=filter-action]", "account_disabled");
    await desk.click("[data-testid=filter-apply]");
    await desk.waitForURL(/action=account_disabled/);
    await desk.waitForSelector("[data-testid=audit-row]");
    assert.deepEqual(await aboutAlice(), ["account_disabled"]);
    const csv = await admin.context.request.get(BASE + (await desk.getAttribute("[data-testid=export-csv]", "href")));
    assert.equal(csv.status(), 200);
    assert.match(await csv.text(), /account_disabled,acct_alice,,shared the account with a stronger player/);
    await desk.screenshot({ path: `${ARTIFACTS}/account-7-log-filtered.png`, fullPage: true });
  } finally {
    for (const b of [alice, phone, admin, owner]) await b.close();
  }
});
