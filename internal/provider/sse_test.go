package provider

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t *testing.T, r io.Reader, lim Limits) ([]Event, error) {
	t.Helper()
	d := NewSSEReader(r, lim)
	var out []Event
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		ev.Data = append([]byte(nil), ev.Data...)
		out = append(out, ev)
	}
}

func TestSSEFieldsLineEndsCommentsAndBOM(t *testing.T) {
	stream := "\xEF\xBB\xBF: comment\r\n" +
		"event: first\r\ndata: a\r\ndata:b\r\ndata:  c\r\n\r\n" + // CRLF, no space, two spaces
		"data: lf\n\n" + // LF, default name
		"event: cr\rdata: x\r\r" + // CR only
		"id: 7\nretry: 10\nunknown: y\ndata\n\n" + // field without colon: empty data line
		"event: ignored-without-data\n\n" +
		"data: {\"k\":1}\n\n" +
		"data: pending-at-eof" // no blank line: discarded
	want := []Event{
		{Name: "first", Data: []byte("a\nb\n c")},
		{Name: "message", Data: []byte("lf")},
		{Name: "cr", Data: []byte("x")},
		{Name: "message", Data: []byte("")},
		{Name: "message", Data: []byte(`{"k":1}`)},
	}
	for name, r := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(stream) },
		"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(stream)) },
		"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(stream)) },
	} {
		got, err := readAll(t, r(), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: got %d events %q", name, len(got), got)
		}
		for i := range want {
			if got[i].Name != want[i].Name || string(got[i].Data) != string(want[i].Data) {
				t.Fatalf("%s: event %d = %q/%q, want %q/%q", name, i, got[i].Name, got[i].Data, want[i].Name, want[i].Data)
			}
		}
	}
}

func TestSSECRLFSplitAcrossReadsIsOneLineEnd(t *testing.T) {
	// "\r" ends one read and "\n" starts the next: that is one line end,
	// not a line end followed by an empty line (which would dispatch).
	r := io.MultiReader(strings.NewReader("data: a\r"), strings.NewReader("\ndata: b\r"), strings.NewReader("\n\r\n"))
	got, err := readAll(t, r, Limits{})
	if err != nil || len(got) != 1 || string(got[0].Data) != "a\nb" {
		t.Fatalf("got %q %v", got, err)
	}
}

func TestSSEBounds(t *testing.T) {
	lim := Limits{MaxSSELineBytes: 16, MaxSSEEventBytes: 32, MaxStreamBytes: 64}
	cases := map[string]struct {
		stream string
		want   error
	}{
		"line":        {"data: " + strings.Repeat("x", 20) + "\n\n", ErrSSELineTooLarge},
		"line no EOL": {"data: " + strings.Repeat("x", 20), ErrSSELineTooLarge},
		"event":       {strings.Repeat("data: xxxxxxxx\n", 4) + "\n", ErrSSEEventTooLarge},
		"stream":      {strings.Repeat("data: x\n\n", 10), ErrSSEStreamTooLarge},
		"utf8":        {"data: \xff\n\n", ErrSSEInvalidUTF8},
	}
	for name, tc := range cases {
		_, err := readAll(t, iotest.OneByteReader(strings.NewReader(tc.stream)), lim)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", name, err, tc.want)
		}
	}
	// A comment line counts against the line bound too.
	_, err := readAll(t, strings.NewReader(":"+strings.Repeat("c", 40)+"\n"), lim)
	if !errors.Is(err, ErrSSELineTooLarge) {
		t.Errorf("long comment: %v", err)
	}
}
