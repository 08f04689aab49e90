#!/usr/bin/env bash
# A fake driver that answers an open with a line that is not JSON (HARNESS-14).
FAKE_NAME=fake-garbage
source "$(dirname "$0")/fake_driver.sh"
serve() {
  echo "fake garbage: printing a log line on stdout while serving $1" >&2
  echo "opening store... ok"
}
run_fake
