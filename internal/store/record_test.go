package store

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// The stored text is JSON.stringify's: U+2028, <, > and & raw, C0
// controls in short form or lowercase \u00xx, astral characters raw.
func TestEncodeMessagesIsJSONStringifyBytes(t *testing.T) {
	msgs := []protocol.AskMessage{
		{Role: protocol.RoleUser, Content: "a\u2028b <i>&</i> \"q\" \\ \x00\x1f\n😀"},
		{Role: protocol.RoleAssistant, Content: ""},
	}
	want := `[{"role":"user","content":"a` + "\u2028" + `b <i>&</i> \"q\" \\ \u0000\u001f\n` + "😀" + `"},{"role":"assistant","content":""}]`
	if got := string(encodeMessages(msgs)); got != want {
		t.Fatalf("encodeMessages =\n%s\nwant\n%s", got, want)
	}
	if got := string(encodeMessages(nil)); got != "[]" {
		t.Fatalf("no messages encode as %q, want []", got)
	}
}

// The widest record the bounds allow fits MaxEncodedBytes, so a valid
// record is never refused on the way back.
func TestWidestRecordFitsMaxEncodedBytes(t *testing.T) {
	msgs := make([]protocol.AskMessage, MaxMessages)
	for i := range msgs {
		msgs[i] = protocol.AskMessage{Role: protocol.RoleAssistant, Content: strings.Repeat("\x01", MaxContentLen)}
	}
	if err := checkSchema(session.Record{Revision: 1, Messages: msgs}, 0); err != nil {
		t.Fatal(err)
	}
	raw := encodeMessages(msgs)
	if len(raw) > MaxEncodedBytes {
		t.Fatalf("widest record encodes to %d bytes, over MaxEncodedBytes %d", len(raw), MaxEncodedBytes)
	}
	r, err := decodeRow(1, string(raw))
	if err != nil || len(r.Messages) != MaxMessages {
		t.Fatalf("decodeRow of the widest record: %d messages, %v", len(r.Messages), err)
	}
}

// FuzzDecodeRow: whatever a row holds, decoding never panics, and what it
// accepts is a record Save would accept and would store as the same
// messages again.
func FuzzDecodeRow(f *testing.F) {
	for _, s := range []string{
		`[]`,
		`[{"role":"user","content":"hi"},{"role":"assistant","content":"yo \u2028 \ud83d\ude00"}]`,
		`[{"content":"x","role":"assistant"}]`,
		`[{"role":"user","content":"\ud800"}]`,
		`[{"role":"user","content":"a","content":"b"}]`,
		`[{"role":"user"}]`,
		`{"role":"user"}`,
		`[[[[[[[[]]]]]]]]`,
		"[\"\xff\"]",
		``,
	} {
		f.Add(int64(1), s)
	}
	f.Fuzz(func(t *testing.T, rev int64, raw string) {
		r, err := decodeRow(rev, raw)
		if err != nil {
			if CodeOf(err) != CodeCorrupt {
				t.Fatalf("decodeRow error %v is not %s", err, CodeCorrupt)
			}
			return
		}
		if rev > 1<<40 {
			return // checkRecord's revision rule needs rev-1 in range
		}
		if err := checkSchema(r, int(rev)-1); err != nil {
			t.Fatalf("decoded record fails checkSchema: %v", err)
		}
		enc := encodeMessages(r.Messages)
		if got, want := session.Size(r), int64(session.RecordOverheadBytes+len(enc)); got != want {
			t.Fatalf("session.Size = %d, want %d", got, want)
		}
		again, err := decodeRow(rev, string(enc))
		if err != nil || len(again.Messages) != len(r.Messages) {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		for i := range r.Messages {
			if again.Messages[i] != r.Messages[i] {
				t.Fatalf("message %d changed through encode/decode", i)
			}
		}
	})
}

// session.Size is the stored text's length plus the record overhead, for
// every content, valid UTF-8 or not: the bytes column, the limits and the
// rows agree.
func FuzzSizeIsEncodedLength(f *testing.F) {
	for _, s := range []string{"", "plain", "\x00\x1f\"\\\b\f\n\r\t\x7f", "é😀\u2028\u2029", "a\xffb\xc3", "\xed\xa0\x80"} {
		f.Add(s, s+"!")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, msgs := range [][]protocol.AskMessage{
			nil,
			{{Role: protocol.RoleUser, Content: a}},
			{{Role: protocol.RoleUser, Content: a}, {Role: protocol.RoleAssistant, Content: b}},
			{{Role: a, Content: b}},
		} {
			r := session.Record{Revision: 1, Messages: msgs}
			if got, want := session.Size(r), int64(session.RecordOverheadBytes+len(encodeMessages(msgs))); got != want {
				t.Fatalf("Size(%q) = %d, want %d", msgs, got, want)
			}
		}
	})
}
