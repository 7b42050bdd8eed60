package protocol

import "github.com/askplane/askplane/internal/ecmajson"

// AppendJSONString appends s as ECMAScript JSON.stringify escapes it (see
// ecmajson.AppendString; invalid UTF-8 is written as U+FFFD). It stays
// exported for callers outside internal/ that write protocol strings.
func AppendJSONString(b []byte, s string) []byte { return ecmajson.AppendString(b, s) }
