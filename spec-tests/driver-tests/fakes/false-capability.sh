#!/usr/bin/env bash
# A fake driver whose hello promises more than it does (HARNESS-16): SQLite,
# which it cannot open, and an injected hasher, which it never asks for (it
# addresses every put as SHA-256 of 01 02 03).
FAKE_NAME=fake-false-capability
source "$(dirname "$0")/fake_driver.sh"
CAPABILITIES='{"backends":["memory","sqlite"],"areas":["segments"],"hooks":false,"hasher":true}'
serve() {
  case $1 in
    segments.open)
      if [[ $3 == *'"backend":"sqlite"'* ]]; then
        refuse "$2" ssp.unsupported "this fake has no SQLite backend"
      else
        answer "$2" '{"store":1}'
      fi ;;
    segments.put) answer "$2" "{\"record\":$(record_json)}" ;;
    segments.get | segments.find) answer "$2" '{"segment":null,"record":null}' ;;
    segments.stats) answer "$2" '{"stats":{"count":1,"bytes":3,"rowsSegments":0,"sqliteSegments":1}}' ;;
    segments.close) answer "$2" '{}' ;;
    *) refuse "$2" ssp.unsupported "no $1" ;;
  esac
}
run_fake
