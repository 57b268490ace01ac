#!/bin/bash
# Developer tool (not used in CI): screenshot an HTML report, e.g. a jperf sweep report, with
# headless Chromium.
#   lab/scripts/screenshot-report.sh HTML [PNG]
# PNG defaults to HTML with .png. JPERF_SCREENSHOT_SIZE=WIDTHxHEIGHT sets the window
# (default 1400x2200; the page is cut at the window's height).
# Exit codes: 0 written; 1 Chromium ran but wrote no PNG; 2 usage error or no Chromium.
set -euo pipefail

usage() { echo "usage: $0 HTML [PNG]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
html=$1
[ -f "$html" ] || { echo "$0: no such file: $html" >&2; exit 2; }
png=${2:-${html%.html}.png}

browser=""
for b in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "$0: Chromium is not installed (looked for chromium, chromium-browser, google-chrome);" \
       "on Debian: apt-get install -y chromium" >&2
  exit 2
fi

size=${JPERF_SCREENSHOT_SIZE:-1400x2200}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "$0: JPERF_SCREENSHOT_SIZE must be WIDTHxHEIGHT, got '$size'" >&2; exit 2; }
abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
out=$(cd "$(dirname "$png")" 2>/dev/null && pwd)/$(basename "$png") || { echo "$0: no directory for $png" >&2; exit 2; }
rm -f "$out"
# --no-sandbox: the usual case here is root in a container or VM; this only opens a local file.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files \
  --screenshot="$out" --window-size="${size/x/,}" "file://$abs" >/dev/null 2>&1 || true
if [ ! -s "$out" ]; then
  echo "$0: $browser wrote no screenshot to $out" >&2
  exit 1
fi
echo "$out"
