// bench.mjs — size and speed of tilescope's page (scripts/web.sh SITE) in
// headless chromium on SwiftShader, served from localhost:
//   - transfer size: each file of the page gzip-compressed (level 6, what a
//     web server's gzip usually sends), and their sum;
//   - time to first frame: navigation to the first frame the app drew, and to
//     the first frame of the default scene (recorded on the emulator);
//   - frame time: the replay playing (Space), frames drawn over 4 s;
//   - record time (record + index, the app's own clock) at N = 64 and 128.
// Prints a table and, with --json FILE, writes the figures with the date,
// the machine and the browser.
//   cd tests/web && npm ci && node bench.mjs SITE [--json ../../assets/web-bench/DATE.json]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { launchChromium, serveSite } from "./support.mjs";

const site = path.resolve(process.argv[2] || "site");
const jsonAt = process.argv.indexOf("--json");
const jsonOut = jsonAt > 0 ? process.argv[jsonAt + 1] : null;

// ---- transfer size ----
const files = ["index.html", "index.js", "index.wasm", "index.data"];
const sizes = {};
let total = 0, totalRaw = 0;
for (const f of files) {
  const raw = fs.readFileSync(path.join(site, f));
  const gz = zlib.gzipSync(raw, { level: 6 }).length;
  sizes[f] = { bytes: raw.length, gzip: gz };
  total += gz;
  totalRaw += raw.length;
}

// ---- the site, and the browser ----
const { server, base } = await serveSite(site);
const browser = await launchChromium();

const stateOf = page => page.evaluate(() =>
  window.Module && Module.calledRun ? JSON.parse(Module.UTF8ToString(Module._ts_web_state())) : {});

async function scene(query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const t0 = Date.now();
  await page.goto(`${base}/index.html${query}`);
  // Polled every animation frame in the page: the first frame, then the scene ready.
  const firstFrame = await page.evaluate(() => new Promise(resolve => {
    const start = performance.timeOrigin;
    const poll = () => {
      const s = window.Module && Module.calledRun ? JSON.parse(Module.UTF8ToString(Module._ts_web_state())) : {};
      if (s.frames > 0) resolve(performance.timeOrigin + performance.now() - start);
      else requestAnimationFrame(poll);
    };
    poll();
  }));
  await page.waitForFunction(() => {
    const s = JSON.parse(Module.UTF8ToString(Module._ts_web_state()));
    return s.trace && !s.busy;
  }, null, { timeout: 300000, polling: "raf" });
  const ready = Date.now() - t0;
  const s = await stateOf(page);
  return { page, firstFrame, ready, s };
}

const result = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${os.cpus()[0].model}`,
                 load_average: os.loadavg().map(x => +x.toFixed(2)), browser: browser.version(),
                 renderer: "SwiftShader (software WebGL2), headless", transfer: { files: sizes, gzip_total: total,
                 bytes_total: totalRaw }, scenes: {} };
try {
  for (const n of [64, 128]) {
    const { page, firstFrame, ready, s } = await scene(`?size=${n}`);
    // Frame time while the replay plays.
    await page.mouse.move(5, 5);
    await page.keyboard.press("Space", { delay: 80 });
    await page.waitForTimeout(300);
    const f0 = (await stateOf(page)).frames, t0 = Date.now();
    await page.waitForTimeout(4000);
    const f1 = (await stateOf(page)).frames, t1 = Date.now();
    const playing = (await stateOf(page)).playing;
    result.scenes[`N${n}`] = {
      kernel: s.trace.kernel, tile: s.trace.tile, n, events: s.trace.events,
      first_frame_ms: Math.round(firstFrame), scene_ready_ms: ready,
      record_ms: Math.round(s.trace.record_ms), index_ms: Math.round(s.trace.index_ms),
      frame_ms: +((t1 - t0) / Math.max(1, f1 - f0)).toFixed(1), frames_counted: f1 - f0, still_playing: playing,
    };
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}

const kb = b => (b / 1024).toFixed(0) + " KiB";
console.log(`tilescope page, ${result.date}, ${result.machine}, load ${result.load_average.join(" ")}, chromium ${result.browser}`);
for (const f of files) console.log(`  ${f.padEnd(11)} ${kb(sizes[f].bytes).padStart(10)}  gzip ${kb(sizes[f].gzip).padStart(9)}`);
console.log(`  transfer (gzip): ${(total / 1048576).toFixed(2)} MiB (uncompressed ${(totalRaw / 1048576).toFixed(2)} MiB)`);
for (const [name, r] of Object.entries(result.scenes))
  console.log(`  ${r.kernel} TILE ${r.tile} N = ${r.n} (${(r.events / 1e6).toFixed(2)} M events): first frame ` +
              `${r.first_frame_ms} ms, scene ready ${r.scene_ready_ms} ms, record ${r.record_ms} ms + index ` +
              `${r.index_ms} ms, frame ${r.frame_ms} ms (playing, ${r.frames_counted} frames in 4 s)`);
if (jsonOut) {
  fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
  fs.writeFileSync(jsonOut, JSON.stringify(result, null, 2) + "\n");
  console.log(`written ${jsonOut}`);
}
