// page_test.mjs — the browser test of tilescope's page (scripts/web.sh SITE):
// Debian's chromium, headless on SwiftShader (WebGL2 in software), driven by
// playwright-core. The page is served by a small static server here, which
// also serves the hostile inputs. It checks that
//   - the page loads with no console error and the default scene draws (pixels);
//   - a click on a cell of C selects it (the app's state: ts_web_state());
//   - a key steps the replay; F12 exports a PNG (a download); F11 presents;
//   - a scripted scene in the URL (?kernel=tiled&tile=2&size=6&select=5,3&step=7&presentation=1)
//     is that scene;
//   - a trace next to the page opens through ?trace=URL;
//   - a file that is not a trace, a truncated one, a version from the future, a
//     URL that 404s and an impossible size each give the app's error notice,
//     with the app still drawing.
// Run: cd tests/web && npm ci && node page_test.mjs SITE
import fs from "node:fs";
import path from "node:path";
import { installPixelReader, launchChromium, serveSite } from "./support.mjs";

const site = path.resolve(process.argv[2] || "site");
if (!fs.existsSync(path.join(site, "index.html"))) {
  console.error(`page_test: no ${site}/index.html (build it: scripts/web.sh ${site})`);
  process.exit(2);
}

// ---- the hostile inputs, made from a real trace of the site ----
const traces = fs.readdirSync(path.join(site, "traces")).filter(f => f.endsWith(".tstrace")).sort();
if (!traces.length) throw new Error("page_test: the site has no traces/");
const goodTrace = traces[0];
const good = fs.readFileSync(path.join(site, "traces", goodTrace));
const future = Buffer.from(good);
future.writeUInt32LE(99, 8);  // the header: magic "TSCTRACE", then the version (app/core/trace_file.h)
const notTrace = Buffer.alloc(4096);
for (let i = 0; i < notTrace.length; ++i) notTrace[i] = (i * 2654435761) >>> 24;
const hostile = {
  "/hostile/not-a-trace.tstrace": notTrace,
  "/hostile/truncated.tstrace": good.subarray(0, Math.floor(good.length / 2)),
  "/hostile/future.tstrace": future,
};

// ---- the site, and the browser ----
const { server, base } = await serveSite(site, hostile);
const browser = await launchChromium();

let failures = 0;
const t0 = Date.now();
function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) ++failures;
}

// A page of the site, with its console errors and uncaught exceptions collected.
async function open(query = "") {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const errors = [];
  page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", e => errors.push(String(e)));
  await page.goto(`${base}/index.html${query}`);
  return { page, errors };
}

// The app's state once it shows a trace, or an error, and nothing is running (or the time is up).
async function settled(page, timeoutMs = 120000) {
  await page.waitForFunction(() => {
    if (!window.Module || !Module.calledRun) return false;
    const s = JSON.parse(Module.UTF8ToString(Module._ts_web_state()));
    return (s.trace && !s.busy) || (s.frames > 2 && !s.busy && (s.notices || []).some(n => n.level === "error"));
  }, null, { timeout: timeoutMs, polling: 250 });
  return state(page);
}
async function state(page) {
  return page.evaluate(() => JSON.parse(Module.UTF8ToString(Module._ts_web_state())));
}
// Waits for a condition on the state (a function's source, called with s).
async function until(page, predicate, timeoutMs = 30000) {
  await page.waitForFunction(src => {
    const s = JSON.parse(Module.UTF8ToString(Module._ts_web_state()));
    return (0, eval)("(" + src + ")")(s);
  }, predicate.toString(), { timeout: timeoutMs, polling: 100 });
  return state(page);
}

// Distinct colours of the page's pixels (decoded by the browser itself).
async function colours(page) {
  const png = (await page.screenshot()).toString("base64");
  await installPixelReader(page);
  return page.evaluate(async b64 => {
    const d = (await window.tsPixels(b64)).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png);
}

const errorNotices = s => (s.notices || []).filter(n => n.level === "error").map(n => n.text);

try {
  // 1. The default scene: loads, draws, no console error.
  {
    const { page, errors } = await open();
    const loadStart = Date.now();
    const s = await settled(page);
    check(s.trace.kernel === "tiled" && s.trace.m === 64, "default scene recorded on the emulator",
          `${s.trace.kernel} N=${s.trace.m} TILE ${s.trace.tile}, ${s.trace.events} events, recorded in ` +
          `${Math.round(s.trace.record_ms)} ms (${Date.now() - loadStart} ms after navigation)`);
    await page.waitForTimeout(500);
    const n = await colours(page);
    check(n > 50, "the default scene draws", `${n} distinct colours`);
    check(errors.length === 0, "no console error on load", errors.join(" | "));

    // 2. A click on a cell of C selects it.
    const C = s.C;
    const row = 10, col = 20;
    check(C && C.visible && C.cell > 0, "C is on screen", JSON.stringify(C));
    await page.mouse.click(C.x + (col + 0.5) * C.cell, C.y + (row + 0.5) * C.cell);
    const picked = await until(page, s => s.selected && s.selected[0] === 10 && s.selected[1] === 20).catch(() => null);
    check(picked !== null, "a click on cell (10, 20) of C selects it",
          JSON.stringify(picked ? picked.selected : (await state(page)).selected));

    // 3. A key steps the replay.
    const before = (await state(page)).step;
    // Held for 80 ms as a finger does: Dear ImGui 1.86 sees the keys held at a
    // frame, so a press and release between two frames would go unseen.
    await page.keyboard.press("ArrowRight", { delay: 80 });
    await page.waitForTimeout(80);
    await page.keyboard.press("ArrowRight", { delay: 80 });
    const stepped = await until(page, new Function("s", `return s.step === ${before + 2}`)).catch(() => null);
    check(stepped !== null, "Right, Right steps the replay", `step ${before} -> ${(await state(page)).step}`);
    // F12: the PNG export, as a download.
    const download = page.waitForEvent("download", { timeout: 20000 }).catch(() => null);
    await page.keyboard.press("F12", { delay: 80 });
    const d = await download;
    let png = null;
    if (d) png = fs.readFileSync(await d.path());
    check(png !== null && png.subarray(1, 4).toString() === "PNG" && png.readUInt32BE(16) === 1280,
          "F12 exports a PNG of the page (a download)", d ? `${d.suggestedFilename()}, ${png.length} bytes` : "no download");

    // F11: presentation mode.
    await page.keyboard.press("F11", { delay: 80 });
    const presenting = await until(page, s => s.presentation === true).catch(() => null);
    check(presenting !== null, "F11 switches to presentation mode");
    check(errors.length === 0, "no console error while clicking, stepping, exporting", errors.join(" | "));
    await page.close();
  }

  // 4. A scripted scene in the URL.
  {
    const { page, errors } = await open("?kernel=tiled&tile=2&size=6&inputs=integers&select=5,3&step=7&presentation=1");
    const s = await settled(page);
    const ready = await until(page, s => s.selected && s.selected[0] === 5 && s.step === 7).catch(() => null);
    check(s.trace.kernel === "tiled" && s.trace.tile === 2 && s.trace.m === 6 && ready !== null && ready.presentation,
          "?kernel=tiled&tile=2&size=6&select=5,3&step=7&presentation=1 is that scene",
          JSON.stringify({ selected: (ready || s).selected, step: (ready || s).step, presentation: (ready || s).presentation }));
    check(errors.length === 0, "no console error in the scripted scene", errors.join(" | "));
    await page.close();
  }

  // 5. Traces next to the page, through the URL: an emulator recording, and
  // one recorded on a GPU when the site ships one (assets/traces).
  const gpuTrace = traces.find(t => t.startsWith("cublas") && !t.includes("reduce")) || traces.find(t => t.startsWith("cublas"));
  for (const name of [goodTrace, gpuTrace].filter(Boolean)) {
    const { page, errors } = await open(`?trace=traces/${name}`);
    const s = await settled(page);
    check(s.trace && s.trace.origin.startsWith("opened") && errorNotices(s).length === 0, `?trace=traces/${name} opens it`,
          s.trace ? `${s.trace.origin}: ${s.trace.kernel} ${s.trace.m}x${s.trace.k}x${s.trace.n}, ${s.trace.events} events`
                  : errorNotices(s).join(" | "));
    check(errors.length === 0, "no console error opening a trace", errors.join(" | "));
    await page.close();
  }

  // 6. Bad input: the app's notice, the app still drawing.
  const bad = [
    ["?trace=hostile/not-a-trace.tstrace", "a file that is not a trace"],
    ["?trace=hostile/truncated.tstrace", "a truncated trace"],
    ["?trace=hostile/future.tstrace", "a trace of a future version"],
    ["?trace=hostile/missing.tstrace", "a URL that 404s"],
    ["?size=100000", "an impossible size"],
    ["?size=192", "a size above the page's recording limit (16 M events)"],
    ["?tile=7", "a TILE that does not exist"],
    ["?select=banana", "a malformed cell"],
  ];
  for (const [query, what] of bad) {
    const { page, errors } = await open(query);
    let s = await settled(page).catch(() => null);
    if (s && errorNotices(s).length === 0) s = await until(page, s => s.notices.some(n => n.level === "error")).catch(() => s);
    const notices = s ? errorNotices(s) : [];
    const n = await colours(page);
    const aborted = errors.filter(e => /Aborted|RuntimeError|unreachable/.test(e));
    check(notices.length > 0 && n > 50 && aborted.length === 0, `${what} (${query}): a notice`,
          (notices[0] || "no notice").slice(0, 160) + ` [${n} colours]` + (aborted.length ? " " + aborted[0] : ""));
    await page.close();
  }
} catch (e) {
  check(false, "the test ran to its end", String(e && e.stack ? e.stack : e));
} finally {
  await browser.close();
  server.close();
}
console.log(`page_test: ${failures ? failures + " FAILED" : "all passed"} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
