#!/bin/bash
# Screenshot an HTML report, e.g. a jperf sweep report, with headless Chromium. CI uses it too:
# SweepReportBrowserTest (core, `mvn verify`) renders a synthetic sweep and checks the PNG and the DOM.
#   lab/scripts/screenshot-report.sh HTML [PNG]
#   lab/scripts/screenshot-report.sh --side-by-side LEFT.html RIGHT.html PNG
#   lab/scripts/screenshot-report.sh --dump-dom HTML [PNG]   (the DOM Chromium built, on stdout;
#                                                              with PNG the screenshot too, same run)
# PNG defaults to HTML with .png. JPERF_SCREENSHOT_SIZE=WIDTHxHEIGHT sets the window
# (default 1400x2200, 2800x2200 side by side; the page is cut at the window's height).
# --side-by-side puts two reports next to each other (each titled with its file name), e.g. the
# sweeps of lab/rdma-lab scenarios: sweep-multirail.html and sweep-single-default-route.html.
# Chromium gets JPERF_SCREENSHOT_TIMEOUT seconds (default 60).
# Exit codes: 0 written; 1 Chromium ran but wrote no PNG (or no DOM), or timed out; 2 usage error or
# no Chromium (the message then starts with "Chromium is not installed").
set -euo pipefail

usage() { echo "usage: $0 HTML [PNG] | --side-by-side LEFT.html RIGHT.html PNG | --dump-dom HTML [PNG]" >&2; exit 2; }
abspath() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
default_size=1400x2200
dump_dom=0
if [ "${1:-}" = --dump-dom ]; then
  [ $# -ge 2 ] && [ $# -le 3 ] || usage
  dump_dom=1
  html=$2
  [ -f "$html" ] || { echo "$0: no such file: $html" >&2; exit 2; }
  png=${3:-}
elif [ "${1:-}" = --side-by-side ]; then
  [ $# -eq 4 ] || usage
  for f in "$2" "$3"; do [ -f "$f" ] || { echo "$0: no such file: $f" >&2; exit 2; }; done
  png=$4
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  html=$tmp/side-by-side.html
  pane() { printf '<div><h1>%s</h1><iframe src="file://%s"></iframe></div>\n' "$(basename "$1" .html)" "$(abspath "$1")"; }
  {
    echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>side by side</title><style>'
    echo 'body{margin:0;display:flex;font-family:sans-serif}div{flex:1;border-right:3px solid #888}'
    echo 'h1{font-size:18px;margin:6px 12px}iframe{border:0;width:100%;height:4000px}</style></head><body>'
    pane "$2"; pane "$3"
    echo '</body></html>'
  } > "$html"
  default_size=2800x2200
else
  [ $# -ge 1 ] && [ $# -le 2 ] || usage
  html=$1
  [ -f "$html" ] || { echo "$0: no such file: $html" >&2; exit 2; }
  png=${2:-${html%.html}.png}
fi

browser=""
for b in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "$0: Chromium is not installed (looked for chromium, chromium-browser, google-chrome);" \
       "on Debian: apt-get install -y chromium" >&2
  exit 2
fi
limit=${JPERF_SCREENSHOT_TIMEOUT:-60}
[[ $limit =~ ^[0-9]+$ ]] || { echo "$0: JPERF_SCREENSHOT_TIMEOUT must be whole seconds, got '$limit'" >&2; exit 2; }
# --no-sandbox: the usual case here is root in a container or VM; this only opens a local file.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files)
size=${JPERF_SCREENSHOT_SIZE:-$default_size}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "$0: JPERF_SCREENSHOT_SIZE must be WIDTHxHEIGHT, got '$size'" >&2; exit 2; }
if [ $dump_dom = 1 ]; then
  shot=()
  if [ -n "$png" ]; then
    png=$(cd "$(dirname "$png")" 2>/dev/null && pwd)/$(basename "$png") || { echo "$0: no directory for $png" >&2; exit 2; }
    rm -f "$png"
    shot=(--screenshot="$png" --window-size="${size/x/,}")
  fi
  dom=$(timeout "$limit" "$browser" "${flags[@]}" "${shot[@]}" --dump-dom "file://$(abspath "$html")" 2>/dev/null) || true
  [ -n "$dom" ] || { echo "$0: $browser printed no DOM for $html (within ${limit}s)" >&2; exit 1; }
  if [ -n "$png" ] && [ ! -s "$png" ]; then
    echo "$0: $browser wrote no screenshot to $png (within ${limit}s)" >&2
    exit 1
  fi
  printf '%s\n' "$dom"
  exit 0
fi

abs=$(abspath "$html")
out=$(cd "$(dirname "$png")" 2>/dev/null && pwd)/$(basename "$png") || { echo "$0: no directory for $png" >&2; exit 2; }
rm -f "$out"
timeout "$limit" "$browser" "${flags[@]}" --screenshot="$out" --window-size="${size/x/,}" "file://$abs" \
  >/dev/null 2>&1 || true
if [ ! -s "$out" ]; then
  echo "$0: $browser wrote no screenshot to $out (within ${limit}s)" >&2
  exit 1
fi
echo "$out"
