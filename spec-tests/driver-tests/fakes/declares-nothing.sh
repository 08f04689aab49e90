#!/usr/bin/env bash
# A fake driver that declares nothing (HARNESS-50): its hello lists no backend
# and no area, so every test skips. A run that exercised nothing must not pass.
FAKE_NAME=fake-declares-nothing
source "$(dirname "$0")/fake_driver.sh"
CAPABILITIES='{"backends":[],"areas":[],"hooks":false,"hasher":false}'
serve() {
  refuse "$2" ssp.unsupported "this fake declares nothing"
}
run_fake
