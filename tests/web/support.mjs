// support.mjs — what the page's test, its desktop comparison and its
// benchmark share: a static server for the site, headless chromium on
// SwiftShader, and a PNG decoded into pixels by the browser itself.
import { chromium } from "playwright-core";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
                ".data": "application/octet-stream", ".tstrace": "application/octet-stream" };

// Serves SITE on a free local port ("/" is index.html); `extra` maps URL paths
// to bytes served before the site's files (the test's hostile inputs).
// Returns { server, base }.
export async function serveSite(site, extra = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    if (extra[url.pathname]) {
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      return res.end(extra[url.pathname]);
    }
    const file = path.join(site, path.normalize(decodeURIComponent(url.pathname)).replace(/^\/+/, "") || "index.html");
    if (!file.startsWith(site) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      return res.end("not found");
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise(r => server.listen(0, "127.0.0.1", r));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

// Debian's chromium (CHROMIUM to name another), headless, WebGL2 on SwiftShader.
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-sandbox", "--ignore-gpu-blocklist"],
  });
}

// Gives the page window.tsPixels(base64 PNG) -> { width, height, data (RGBA) },
// the PNG decoded by the browser; call again after the page navigates.
export function installPixelReader(page) {
  return page.evaluate(() => {
    window.tsPixels = async b64 => {
      const img = new Image();
      img.src = "data:image/png;base64," + b64;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      return { width: c.width, height: c.height, data: ctx.getImageData(0, 0, c.width, c.height).data };
    };
  });
}
