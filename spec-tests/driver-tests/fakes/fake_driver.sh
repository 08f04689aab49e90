# Shared by the fake drivers (sourced, not run): just enough of
# docs/driver-protocol.md in bash to misbehave in one chosen way each.
# A fake defines `serve METHOD ID LINE` and calls `run_fake`.

# The hello result of a fake; override CAPABILITIES before run_fake.
CAPABILITIES='{"backends":["memory"],"areas":["segments"],"hooks":false,"hasher":false}'

answer() {  # answer ID RESULT_JSON
  printf '{"id":%s,"result":%s}\n' "$1" "$2"
}

refuse() {  # refuse ID CODE MESSAGE
  printf '{"id":%s,"error":{"code":"%s","message":"%s"}}\n' "$1" "$2" "$3"
}

# Answers hello itself; every other request goes to the fake's serve.
run_fake() {
  local line id method
  while IFS= read -r line; do
    [[ $line =~ \"id\":([0-9]+) ]] && id=${BASH_REMATCH[1]} || id=null
    [[ $line =~ \"method\":\"([^\"]+)\" ]] && method=${BASH_REMATCH[1]} || method=
    if [[ $method == hello && $line != *'"protocol":1'[,}]* ]]; then
      # Every fake speaks protocol version 1 only, as drivers written before
      # version 2 do: the harness must fall back (docs/driver-protocol.md).
      refuse "$id" ssp.unsupported "this fake speaks protocol version 1 only"
    elif [[ $method == hello ]]; then
      answer "$id" "{\"protocol\":1,\"implementation\":{\"name\":\"$FAKE_NAME\",\"version\":\"0\"},\"capabilities\":$CAPABILITIES}"
    else
      serve "$method" "$id" "$line"
    fi
  done
}

# A well-formed record for the first put of base_metadata() with bytes
# 01 02 03 at kNow (spec-tests/harness/fixtures/segment_fixtures.hpp); FAKE_SEGMENT_ID
# and FAKE_BYTE_LENGTH change it.
record_json() {
  local id=${FAKE_SEGMENT_ID:-sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81}
  local length=${FAKE_BYTE_LENGTH:-3}
  local context='"partition":"p","logEpoch":"epoch-1","table":"tasks","schemaVersion":1,"mediaType":"sqlite","scopeDigest":"digest-a","asOfCommitSeq":42,"rowCount":5,"rowCursor":null,"nextRowCursor":null'
  local times="\"byteLength\":$length,\"createdAtMs\":1750000000000,\"expiresAtMs\":1750086400000"
  printf '{"segmentId":"%s",%s,%s,"scopeDigests":["digest-a"],"publications":[{%s,%s}]}' \
    "$id" "$context" "$times" "$context" "$times"
}
