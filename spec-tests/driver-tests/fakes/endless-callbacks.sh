#!/usr/bin/env bash
# A fake driver that never answers a put but keeps the call busy: it asks the
# harness for the content address again and again, reading each answer, so
# the call is never silent long enough for the deadline (HARNESS-23).
FAKE_NAME=fake-endless-callbacks
source "$(dirname "$0")/fake_driver.sh"
CAPABILITIES='{"backends":["memory"],"areas":["segments"],"hooks":false,"hasher":true}'
serve() {
  case $1 in
    segments.open) answer "$2" '{"store":1}' ;;
    segments.put)
      local n=0 reply
      echo "fake endless-callbacks: asking hash forever during segments.put" >&2
      while :; do
        n=$((n + 1))
        printf '{"id":"h%d","method":"hash","params":{"call":%s,"bytes":"AQID"}}\n' "$n" "$2"
        IFS= read -r reply || exit 0
      done ;;
    segments.close) answer "$2" '{}' ;;
    *) refuse "$2" ssp.unsupported "no $1" ;;
  esac
}
run_fake
