// compare_desktop.mjs — the page's picture of a scripted scene against the
// desktop app's picture of the same scene: the same layout within a few
// pixels (every panel's window, where A, B and C are and their cell size)
// and the same colour in every cell of A, B and C.
//   node compare_desktop.mjs SITE TILESCOPE [OUTDIR]
// TILESCOPE is the desktop binary (build/app/cli/tilescope); it draws the
// scene at 1280 x 800 with --screenshot and --layout-json (under xvfb-run
// when there is no display); the page draws it in headless chromium at the
// same size. Mesa's llvmpipe and SwiftShader rasterise text differently, so
// pixels are compared per cell, away from the numbers and the grid lines.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { installPixelReader, launchChromium, serveSite } from "./support.mjs";

const site = path.resolve(process.argv[2] || "site");
const binary = path.resolve(process.argv[3] || "../../build/app/cli/tilescope");
const outDir = path.resolve(process.argv[4] || fs.mkdtempSync(path.join(os.tmpdir(), "tilescope-compare-")));
fs.mkdirSync(outDir, { recursive: true });
const W = 1280, H = 800;
const scene = { kernel: "tiled", tile: "2", size: "6", inputs: "integers", seed: "7", select: "5,3", step: "7" };

// ---- the desktop's picture ----
const desktopPng = path.join(outDir, "desktop.png"), desktopJson = path.join(outDir, "desktop.json");
const args = ["--kernel", scene.kernel, "--tile", scene.tile, "--size", scene.size, "--inputs", scene.inputs,
              "--seed", scene.seed, "--select-c", scene.select, "--step", scene.step, "--window", `${W}x${H}`,
              "--screenshot", desktopPng, "--layout-json", desktopJson, "--quit-after-frames", "5", "--device", "cpu"];
const env = { ...process.env, TILESCOPE_CONFIG_DIR: path.join(outDir, "config") };
if (process.env.DISPLAY) execFileSync(binary, args, { env, stdio: "inherit" });
else execFileSync("xvfb-run", ["-a", "-s", "-screen 0 1920x1080x24", binary, ...args], { env, stdio: "inherit" });
const desktop = JSON.parse(fs.readFileSync(desktopJson, "utf8"));

// ---- the page's picture ----
const { server, base } = await serveSite(site);
const browser = await launchChromium();
let failures = 0;
const check = (ok, what, detail = "") => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) ++failures;
};
try {
  const page = await browser.newPage({ viewport: { width: W, height: H } });
  await page.goto(`${base}/index.html?` + new URLSearchParams(scene).toString());
  await page.waitForFunction(() => {
    if (!window.Module || !Module.calledRun) return false;
    const s = JSON.parse(Module.UTF8ToString(Module._ts_web_state()));
    return s.trace && !s.busy && s.step === 7 && s.selected && s.frames > 5;
  }, null, { timeout: 120000, polling: 250 });
  await page.mouse.move(W - 2, H - 2);  // no hover highlight
  await page.evaluate(() => { document.getElementById("open").style.display = "none"; });
  await page.waitForTimeout(1500);
  const pageState = await page.evaluate(() => JSON.parse(Module.UTF8ToString(Module._ts_web_state())));
  const pagePng = path.join(outDir, "page.png");
  await page.screenshot({ path: pagePng });

  // Layout: panels by id, and the matrices.
  const byId = list => Object.fromEntries((list || []).map(p => [p.id, p]));
  const dp = byId(desktop.panels), pp = byId(pageState.panels);
  const worst = { px: 0, what: "" };
  for (const id of new Set([...Object.keys(dp), ...Object.keys(pp)])) {
    if (!dp[id] || !pp[id]) { check(false, `panel ${id} on both`); continue; }
    for (const k of ["x", "y", "width", "height"]) {
      const d = Math.abs(dp[id][k] - pp[id][k]);
      if (d > worst.px) Object.assign(worst, { px: d, what: `${id}.${k}` });
    }
  }
  for (const m of ["A", "B", "C"])
    for (const k of ["x", "y", "cell"]) {
      const d = Math.abs(desktop[m][k] - pageState[m][k]);
      if (d > worst.px) Object.assign(worst, { px: d, what: `${m}.${k}` });
    }
  check(worst.px <= 3, "same layout within 3 pixels (every panel, A, B, C)",
        `largest difference ${worst.px.toFixed(1)} px${worst.what ? " (" + worst.what + ")" : ""}, ${Object.keys(pp).length} panels`);

  // Colours per cell, both pictures decoded by the browser.
  const b64 = f => fs.readFileSync(f).toString("base64");
  await installPixelReader(page);
  const samples = await page.evaluate(async ({ pngs, grids }) => {
    const out = [];
    for (const png of pngs) {
      const { width, data: d } = await window.tsPixels(png);
      const cells = [];
      for (const [name, g] of grids)
        for (let r = 0; r < g.rows; ++r)
          for (let col = 0; col < g.cols; ++col) {
            const x = Math.round(g.x + (col + 0.2) * g.cell), y = Math.round(g.y + (r + 0.2) * g.cell);
            const i = 4 * (y * width + x);
            cells.push([name, r, col, d[i], d[i + 1], d[i + 2]]);
          }
      out.push(cells);
    }
    return out;
  }, { pngs: [b64(desktopPng), b64(pagePng)], grids: ["A", "B", "C"].map(m => [m, desktop[m]]) });
  let differ = 0, worstCell = "";
  for (let i = 0; i < samples[0].length; ++i) {
    const a = samples[0][i], b = samples[1][i];
    const d = Math.max(Math.abs(a[3] - b[3]), Math.abs(a[4] - b[4]), Math.abs(a[5] - b[5]));
    if (d > 12) {
      ++differ;
      if (!worstCell) worstCell = `${a[0]}(${a[1]},${a[2]}): desktop ${a.slice(3)} page ${b.slice(3)}`;
    }
  }
  check(differ === 0, "same colour in every cell of A, B and C", `${samples[0].length} cells, ${differ} differ` +
        (worstCell ? `, first: ${worstCell}` : ""));
  console.log(`pictures: ${desktopPng} ${pagePng}`);
} catch (e) {
  check(false, "the comparison ran to its end", String(e && e.stack ? e.stack : e));
} finally {
  await browser.close();
  server.close();
}
process.exit(failures ? 1 : 0);
