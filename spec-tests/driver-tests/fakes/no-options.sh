#!/usr/bin/env bash
# A fake driver with none of the optional mechanisms (HARNESS-26): its hello
# lists no hook points, no injected hasher and no read-only open, and it
# serves just enough of a memory segment store for a test to start. Tests
# that need those mechanisms must skip at their capability gates; reaching
# the fake with them would be a harness error.
FAKE_NAME=fake-no-options
source "$(dirname "$0")/fake_driver.sh"
CAPABILITIES='{"backends":["memory"],"areas":["segments"],"hooks":false,"hasher":false}'
serve() {
  case $1 in
    segments.open)
      if [[ $3 == *'"readOnly":true'* || $3 == *'"hooks":true'* || $3 == *'"hasher":"callback"'* ]]; then
        refuse "$2" ssp.unsupported "an option this fake's hello does not advertise"
      else
        answer "$2" '{"store":1}'
      fi ;;
    segments.put) answer "$2" "{\"record\":$(record_json)}" ;;
    segments.get | segments.find) answer "$2" '{"segment":null,"record":null}' ;;
    segments.close) answer "$2" '{}' ;;
    *) refuse "$2" ssp.unsupported "no $1" ;;
  esac
}
run_fake
