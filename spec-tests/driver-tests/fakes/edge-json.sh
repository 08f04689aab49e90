#!/usr/bin/env bash
# A fake driver that answers every request after hello with a line of edge
# JSON (HARNESS-32): `{"id":ID` and then the bytes of the file
# FAKE_EDGE_JSON_REST, which the test writes from the edge JSON case file
# (fixtures/cases/edge_json/edge_json.json, site driver_answer).
FAKE_NAME=fake-edge-json
source "$(dirname "$0")/fake_driver.sh"
serve() {
  echo "fake edge-json: answering $1 with edge JSON" >&2
  printf '{"id":%s' "$2"
  cat "$FAKE_EDGE_JSON_REST"
  printf '\n'
}
run_fake
