// The rules page (000 §9 "규칙 보기"): read in Korean and English on a desktop and a phone, its
// flat diagrams and the small 3D box drawn, the 000 §6.4 example's scores, and reachable
// from a room.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACTS, BASE, launch, waitFrames } from "./browser.mjs";
import { createRoom, player, waitHydrated } from "./game.mjs";

const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

test("the rules page in both languages, with its diagrams, from a room", async () => {
  const reader = await launch();
  const host = await player("rules_reader");
  try {
    const page = await reader.context.newPage();
    for (const lang of ["ko", "en"]) {
      await reader.context.addCookies([{ name: "sb_lang", value: lang, url: BASE }]);
      for (const [vp, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        await page.goto(BASE + "/rules");
        await waitHydrated(page);
        await waitFrames(page, 1, "[data-testid=rules-box]");
        const text = await page.innerText("[data-testid=rules-page]");
        if (lang === "ko") {
          for (const w of ["활로와 따내기", "자충수", "패", "집 계산", "빅", "공간 바둑"]) assert.ok(text.includes(w), w);
        } else {
          for (const w of ["Liberties and capture", "No suicide", "Ko and repetition", "territory and area", "Seki", "Space baduk"]) {
            assert.ok(text.includes(w), w);
          }
        }
        // 000 §6.4: 39 : 36.5 by territory, 45 : 43.5 by area.
        assert.match(await page.innerText("[data-testid=rules-territory]"), /39[\s\S]*36\.5/);
        assert.match(await page.innerText("[data-testid=rules-area]"), /45[\s\S]*43\.5/);
        for (const d of ["capture", "suicide", "ko", "count"]) {
          assert.ok(await page.locator(`[data-testid=diagram-${d}] circle`).count() > 0, d);
        }
        assert.equal(await page.locator("[data-testid=diagram-count] .stone.black").count(), 9);
        const keys = text.match(/(?<![\w./:-])rules\.[a-z_.]+/g);
        assert.equal(keys, null, "no catalogue key shows");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 1, `fits the ${vp} width (${overflow}px over)`);
        await page.screenshot({ path: `${ARTIFACTS}/rules-${lang}-${vp}.png`, fullPage: true });
      }
    }

    // Every room links to it.
    const { id } = await createRoom(host, { name: "Rules link", preset: "classic", size: 9, colours: "host_black" });
    await host.page.goto(`${BASE}/rooms/${id}`);
    await waitHydrated(host.page);
    assert.equal(await host.page.getAttribute("[data-testid=rules-link]", "href"), "/rules");
  } finally {
    await reader.close();
    await host.close();
  }
});
