#!/usr/bin/env bash
# A fake driver that answers every request but hello under another id
# (HARNESS-15).
FAKE_NAME=fake-wrong-id
source "$(dirname "$0")/fake_driver.sh"
serve() {
  answer "$(( $2 + 1000 ))" '{"store":1}'
}
run_fake
