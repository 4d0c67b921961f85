// Helpers for playing matches through the UI: accounts, a room made on the new-room page,
// seats taken through the invitation links, and small waits on the server's view.
import assert from "node:assert/strict";
import { BASE, launch } from "./browser.mjs";

/// A signed-in player in their own browser (cookies kept in the context).
export async function player(name) {
  const b = await launch();
  const r = await b.context.request.post(BASE + "/api/sign_up", {
    form: { username: name, password: "a long test password", password_again: "a long test password" },
  });
  assert.equal(r.status(), 200, `sign up ${name}: ${await r.text()}`);
  b.page = await b.context.newPage();
  b.page.on("pageerror", (e) => console.error(`[${name}] page error:`, e.message));
  return b;
}

/// The administrator made by 03-setup (made here with the setup link when that test did not
/// run first), signed in in their own browser.
export async function referee() {
  const b = await launch();
  const creds = { username: "admin", password: "a long admin password" };
  let r = await b.context.request.post(BASE + "/api/v1/session", { data: creds });
  if (r.status() === 401 && process.env.SETUP_URL) {
    const token = new URL(process.env.SETUP_URL).searchParams.get("token");
    await b.context.request.post(BASE + "/api/complete_setup", {
      form: { token, username: creds.username, password: creds.password, password_again: creds.password },
    });
    r = await b.context.request.post(BASE + "/api/v1/session", { data: creds });
  }
  assert.equal(r.status(), 200, `administrator sign-in: ${await r.text()}`);
  b.page = await b.context.newPage();
  b.page.on("pageerror", (e) => console.error(`[admin] page error:`, e.message));
  return b;
}

/// Creates a room on the new-room page and returns its invitation links.
export async function createRoom(host, { name, preset, size, colours, labels }) {
  const page = host.page;
  await page.goto(BASE + "/rooms/new");
  await page.waitForSelector("[data-testid=new-room]");
  await waitHydrated(page);
  await page.fill("[data-testid=room-name-input]", name);
  await page.selectOption("[data-testid=preset]", preset);
  await page.selectOption("[data-testid=size]", String(size));
  await page.selectOption("[data-testid=colours]", colours);
  if (labels) {
    // { kind: "english" | "korean" | "custom", custom: ["x labels", "y labels", "z labels"] }
    await page.selectOption("[data-testid=labels]", labels.kind);
    for (const [i, axis] of ["x", "y", "z"].entries()) {
      if (labels.custom) await page.fill(`[data-testid=labels-${axis}]`, labels.custom[i]);
    }
  }
  await page.click("[data-testid=create]");
  await page.waitForSelector("[data-testid=invites]");
  const links = [await page.getAttribute("[data-testid=invite-0]", "href"), await page.getAttribute("[data-testid=invite-1]", "href")];
  const id = Number(new URL(links[0]).pathname.split("/").pop());
  return { id, links };
}

/// The page is interactive: the WASM bundle hydrated it.
export async function waitHydrated(page) {
  await page.waitForFunction(() => window.__sb_hydrated === true, null, { timeout: 60_000 });
}

/// Opens the invitation and takes the seat.
export async function sit(p, link) {
  await p.page.goto(link);
  await waitHydrated(p.page);
  await p.page.click("[data-testid=join]");
  await p.page.waitForSelector("[data-testid=confirm-settings]");
}

/// Both seated players agree to the settings, then both press Ready.
export async function agreeAndReady(id, a, b) {
  for (const p of [a, b]) {
    await p.page.click("[data-testid=confirm-settings]:not([disabled])");
  }
  for (const p of [a, b]) {
    await p.page.click("[data-testid=ready]");
  }
  await until(id, (v) => v.phase === "playing", "both ready");
}

/// The server's view of a room, as any visitor sees it.
export async function roomView(id) {
  return (await fetch(`${BASE}/api/v1/rooms/${id}`)).json();
}

export async function until(id, pred, what) {
  for (let i = 0; i < 300; i++) {
    const v = await roomView(id);
    if (pred(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`room ${id} never reached: ${what}\n${JSON.stringify(await roomView(id)).slice(0, 2000)}`);
}

/// Waits until the page holds the server's latest event (its room's `data-version`): a test
/// that taps right after an event must not race the event's arrival, which clears the
/// selection (003 §7.7).
export async function inStep(page, id) {
  const { version } = await roomView(id);
  await page.waitForFunction((v) => Number(document.querySelector("main.room")?.dataset.version) >= v, version);
}

/// Taps a point in a board SVG (`board` for flat boards, `region` for a box's region view).
export async function tap(page, x, y, z) {
  // A box's region pane shows its 3D view by default; points are tapped on the layer plan.
  const plan = await page.$("[data-testid=region-plan]");
  if (plan && (await plan.getAttribute("aria-pressed")) !== "true") await plan.click();
  await page.click(`[data-testid=pt-${x}-${y}-${z}]`);
}

/// Selects, confirms, and waits until the server has the move and the opponent's device
/// acknowledged it.
export async function play(p, id, x, y, z) {
  const before = (await roomView(id)).move_number;
  await tap(p.page, x, y, z);
  await p.page.waitForSelector("[data-testid=preview]");
  await p.page.click("[data-testid=confirm-move]");
  await until(id, (v) => v.move_number === before + 1 && v.awaiting_ack === null, `move ${before + 1} acknowledged`);
}

export async function pass(p, id) {
  const before = (await roomView(id)).move_number;
  await p.page.click("[data-testid=pass]");
  await p.page.click("[data-testid=confirm-yes]");
  await until(id, (v) => v.move_number === before + 1 && (v.awaiting_ack === null || v.phase !== "playing"), "pass");
}

/// A seeded generator (mulberry32): the same middle game for the same seed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function command(p, id, cmd) {
  const r = await p.context.request.post(`${BASE}/api/v1/rooms/${id}/commands`, { data: cmd });
  return { status: r.status(), body: await r.text() };
}

/// A Space room of an n×n×n box in play between `black` and `white` (made over the API from
/// the new-room form's own Space settings).
export async function spaceRoom(black, white, n, name) {
  const made = await createRoom(black, { name: `${name} template`, preset: "space", size: 5, colours: "host_black" });
  const settings = (await roomView(made.id)).settings;
  settings.board = { x: { start: 1, end: n }, y: { start: 1, end: n }, z: { start: 1, end: n } };
  const r = await black.context.request.post(`${BASE}/api/v1/rooms`, { data: { name, settings } });
  assert.equal(r.status(), 201, await r.text());
  const { room_id: id, invite_codes: codes } = await r.json();
  for (const [p, cmd] of [[black, { type: "join", code: codes[0] }], [white, { type: "join", code: codes[1] }],
    [black, { type: "confirm" }], [white, { type: "confirm" }], [black, { type: "ready" }], [white, { type: "ready" }]]) {
    const res = await command(p, id, cmd);
    assert.equal(res.status, 200, `${JSON.stringify(cmd)}: ${res.body}`);
  }
  return id;
}

/// Plays `moves` moves of a middle game: stones gathered around a few centres, as groups
/// form in a real game; a point the rules refuse is tried elsewhere. Every move is
/// acknowledged by the other side's device, as a browser does.
export async function middleGame(black, white, id, n, moves, seed) {
  const rand = rng(seed);
  const centres = Array.from({ length: 6 }, () => [0, 1, 2].map(() => 2 + Math.floor(rand() * (n - 2))));
  const taken = new Set();
  let played = 0;
  for (let tries = 0; played < moves && tries < moves * 6; tries++) {
    const c = centres[Math.floor(rand() * centres.length)];
    const spread = () => Math.round((rand() + rand() + rand() - 1.5) * n * 0.22);
    const [x, y, z] = c.map((v) => Math.min(n, Math.max(1, v + spread())));
    const key = `${x},${y},${z}`;
    if (taken.has(key)) continue;
    const [mover, other] = played % 2 === 0 ? [black, white] : [white, black];
    const r = await command(mover, id, { type: "move", at: { x, y, z } });
    if (r.status !== 200) continue; // illegal here (suicide, repetition): elsewhere
    taken.add(key);
    played += 1;
    const ack = await command(other, id, { type: "acknowledge", move_number: played });
    assert.equal(ack.status, 200, ack.body);
  }
  assert.equal(played, moves, "the middle game was played");
  return until(id, (v) => v.move_number === moves, "all moves in");
}

