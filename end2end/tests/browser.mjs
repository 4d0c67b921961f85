// Shared browser set-up: Debian's Chromium through playwright-core, headless, as root,
// with a fresh profile per launch and WebGL2 on SwiftShader (software).
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const BASE = process.env.BASE_URL;
export const ARTIFACTS = process.env.ARTIFACTS;

export async function launch(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "space-baduk-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run", "--disable-quic",
      // WebGL2 without a GPU: ANGLE on SwiftShader.
      "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
    ],
    ...options,
  });
  const close = async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); };
  return { context, close };
}

/// Waits until the WASM renderer has drawn at least `n` frames on the board canvas.
export async function waitFrames(page, n = 1, selector = "[data-testid=board-canvas]") {
  await page.waitForFunction(([n, selector]) => {
    const c = document.querySelector(selector);
    return c && Number(c.dataset.frames) >= n;
  }, [n, selector], { timeout: 60_000 });
}
