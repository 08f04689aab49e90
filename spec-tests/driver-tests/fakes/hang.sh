#!/usr/bin/env bash
# A fake driver that opens stores and then never answers a put: it keeps
# reading and ignoring its input (HARNESS-13).
FAKE_NAME=fake-hang
source "$(dirname "$0")/fake_driver.sh"
serve() {
  case $1 in
    segments.open) answer "$2" '{"store":1}' ;;
    segments.close) answer "$2" '{}' ;;
    *) echo "fake hang: not answering $1" >&2 ;;
  esac
}
run_fake
