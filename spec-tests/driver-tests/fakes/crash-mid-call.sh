#!/usr/bin/env bash
# A fake driver that opens stores and then dies of SIGSEGV inside the first
# put (HARNESS-12).
FAKE_NAME=fake-crash-mid-call
source "$(dirname "$0")/fake_driver.sh"
serve() {
  case $1 in
    segments.open) answer "$2" '{"store":1}' ;;
    segments.close) answer "$2" '{}' ;;
    *) echo "fake crash-mid-call: segmentation fault while serving $1" >&2
       kill -SEGV $$ ;;
  esac
}
run_fake
