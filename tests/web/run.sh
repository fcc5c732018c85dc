#!/usr/bin/env bash
# run.sh SITE [TILESCOPE] — the browser test of the page that scripts/web.sh
# built into SITE: installs what is missing (Debian's chromium; playwright-core
# from npm, pinned by package-lock.json, without a browser download), then
# runs page_test.mjs against SITE in headless chromium on SwiftShader, and,
# given the desktop binary TILESCOPE, compare_desktop.mjs: the page's picture
# of a scripted scene against the desktop app's (under xvfb-run).
set -euo pipefail
site=$(realpath "${1:?usage: tests/web/run.sh SITE [TILESCOPE]}")
desktop=${2:+$(realpath "$2")}
cd "$(dirname "$0")"
missing=()
for p in chromium nodejs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  echo "web test: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ ! -d node_modules/playwright-core ]]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent
fi
node page_test.mjs "$site"
if [[ -n $desktop ]]; then
  node compare_desktop.mjs "$site" "$desktop" "$site/../compare-desktop"
fi
