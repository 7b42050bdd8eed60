package mcp

import (
	"errors"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/replay"
)

type fakePages map[string]string

func (f fakePages) Read(p string) (string, string, error) {
	if t, ok := f[p]; ok {
		return t, p, nil
	}
	return "", "", errors.New("none")
}

// TestReadPage: read_page slices a twin by UTF-16 offset within its byte
// budget, never splits a surrogate pair, carries the whole text's hash on
// every slice, and joins back to the text; unknown pages and bad offsets
// are refused with replay's invalid-request code.
func TestReadPage(t *testing.T) {
	text := "# Page\n\n" + strings.Repeat("héllo 😀 wörld ", 3000)
	pages := fakePages{"/docs/x/": text}
	var got strings.Builder
	off, slices := 0, 0
	for {
		rd, err := readPage(pages, PageInput{URL: "https://docs.example/docs/x/", Offset: off}, replay.DefaultReadBytes)
		if err != nil {
			t.Fatal(err)
		}
		slices++
		if rd.ContentSHA256 != replay.ContentHash([]byte(text)) || rd.MediaType != "text/markdown" || rd.URL != "/docs/x/" {
			t.Fatalf("slice %d: %+v", slices, rd)
		}
		got.WriteString(rd.Data)
		if rd.NextOffset == nil {
			break
		}
		off = *rd.NextOffset
	}
	if got.String() != text || slices < 3 {
		t.Errorf("%d slices joined to %d bytes; want %d", slices, got.Len(), len(text))
	}
	for _, in := range []PageInput{{URL: "/nope/"}, {URL: ""}, {URL: "/docs/x/", Offset: -1}, {URL: "/docs/x/", Offset: 1 << 30}, {URL: "/docs/x/", Offset: 16}} {
		_, err := readPage(pages, in, replay.DefaultReadBytes)
		var re *replay.Error
		if in.Offset == 16 {
			// 16 is not inside a pair here: allowed.
			if err != nil {
				t.Errorf("%+v: %v", in, err)
			}
			continue
		}
		if !errors.As(err, &re) || re.Code != replay.CodeInvalidRequest {
			t.Errorf("%+v: %v; want an invalid request", in, err)
		}
	}
	// Inside a surrogate pair: the emoji's second half.
	i := strings.Index(text, "😀")
	units := len([]rune(text[:i])) // every rune before it is in the BMP
	if _, err := readPage(pages, PageInput{URL: "/docs/x/", Offset: units + 1}, replay.DefaultReadBytes); err == nil {
		t.Error("an offset inside a surrogate pair was accepted")
	}
}
