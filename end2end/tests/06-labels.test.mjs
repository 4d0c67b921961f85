// Custom coordinate labels (003 §7.1, §9.4): set on the new-room page, shown in the agreed
// settings, typed case-sensitively into the X/Y/Z fields (a wrong case names the allowed
// labels), and shown with the axis names; the server keeps actual coordinates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, launch } from "./browser.mjs";
import { agreeAndReady, createRoom, player, roomView, sit, until } from "./game.mjs";

test("a room with custom labels: entry is case-sensitive and moves are named by the labels", async () => {
  const host = await player("labelhost");
  const guest = await player("labelguest");
  try {
    const custom = ["a A b B c", "i ii iii iv v", "가 나 다 라 마"];
    const { id, links } = await createRoom(host, {
      name: "Labels",
      preset: "space",
      size: 5,
      colours: "host_black",
      labels: { kind: "custom", custom },
    });
    const created = await roomView(id);
    assert.deepEqual(created.settings.labels, { kind: "custom", x: custom[0].split(" "), y: custom[1].split(" "), z: custom[2].split(" ") });
    await sit(host, links[0]);
    await sit(guest, links[1]);
    assert.match(await guest.page.textContent(".settings-summary"), /X a…c, Y i…v, Z 가…마/);
    await agreeAndReady(id, host, guest);

    // "a" is line 1 of X and "A" line 2: a wrong case is not a label of that axis.
    const page = host.page;
    await page.fill("[data-testid=coord-x]", "C");
    await page.fill("[data-testid=coord-y]", "ii");
    await page.fill("[data-testid=coord-z]", "다");
    await page.click("[data-testid=coord-select]");
    const err = await page.textContent("[data-testid=notice]");
    assert.match(err, /X/);
    assert.match(err, /a–c/, "the allowed labels are named");
    await page.fill("[data-testid=coord-x]", "A");
    await page.click("[data-testid=coord-select]");
    await page.waitForFunction(() => /X A · Y ii · Z 다/.test(document.querySelector("[data-testid=selection]").textContent));
    await page.click("[data-testid=confirm-move]");
    const v = await until(id, (v) => v.move_number === 1, "first move");
    assert.deepEqual(v.stones[0][0], { x: 2, y: 2, z: 3 }, "labels never move points");
    await guest.page.waitForSelector("[data-testid=move-list] >> text=X A · Y ii · Z 다");
    await guest.page.screenshot({ path: `${ARTIFACTS}/labels-custom.png` });
  } finally {
    await host.close();
    await guest.close();
  }
});
