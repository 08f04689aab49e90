#!/usr/bin/env bash
# A fake driver that follows the protocol to the letter and answers wrongly
# (HARNESS-17): every put returns the same well-formed record with a length
# off by one, nothing is ever found, and the counters stay zero.
FAKE_NAME=fake-wrong-answers
source "$(dirname "$0")/fake_driver.sh"
FAKE_BYTE_LENGTH=4
serve() {
  case $1 in
    segments.open) answer "$2" '{"store":1}' ;;
    segments.put) answer "$2" "{\"record\":$(record_json)}" ;;
    segments.get) answer "$2" '{"segment":null}' ;;
    segments.find) answer "$2" '{"record":null}' ;;
    segments.stats) answer "$2" '{"stats":{"count":0,"bytes":0,"rowsSegments":0,"sqliteSegments":0}}' ;;
    segments.close) answer "$2" '{}' ;;
    *) refuse "$2" ssp.unsupported "no $1" ;;
  esac
}
run_fake
