package replay

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
)

// astral is text with astral characters (surrogate pairs), quotes,
// backslashes and controls packed so every slice boundary meets one.
const astral = "😀\"a\\😀😀\u2028𝄞b\n😀"

// fit never splits a surrogate pair and always advances, at every offset
// and at the smallest budgets: astral characters sit at every boundary.
func TestFitNeverSplitsASurrogatePair(t *testing.T) {
	text := strings.Repeat(astral, 7)
	units := utf16.Encode([]rune(text))
	for budget := 4; budget <= 16; budget++ { // UTF-8 bytes of the slice; an astral character takes 4
		for offset := 0; offset <= len(units); offset++ {
			if splitsPair(units, offset) {
				continue
			}
			var got []rune
			for at := offset; at < len(units); {
				end, err := fit(units, at, func(end int) bool {
					return len(string(utf16.Decode(units[at:end]))) <= budget
				})
				if err != nil {
					t.Fatalf("budget %d offset %d: %v", budget, at, err)
				}
				if end <= at || splitsPair(units, end) {
					t.Fatalf("budget %d offset %d: end %d", budget, at, end)
				}
				got = append(got, utf16.Decode(units[at:end])...)
				at = end
			}
			if want := utf16.Decode(units[offset:]); string(got) != string(want) {
				t.Fatalf("budget %d offset %d: slices concatenate to %q", budget, offset, string(got))
			}
		}
	}
}

// sliceResult is a replayed package whose one record's text is long and
// astral, so reads at the minimum size take many slices.
func sliceResult(t *testing.T) *Result {
	t.Helper()
	p := evidence.Package{ContextID: ctxA, Records: []evidence.Selected{{ID: "r1", Excerpt: strings.Repeat(astral, 900)}}}
	return &Result{Package: p, Canonical: []byte(`{"text":"` + strings.Repeat("😀", 5000) + `"}`), Identity: Identity{Engine: "e/1", Mode: ModeExplicit, MatchingEngines: []string{"e/1"}}}
}

// Reads at the minimum size follow next_offset to null; the slices fit,
// concatenate to the value exactly and hash to content_sha256, and each
// carries the replay identity.
func TestReadsPageByUTF16AtTheMinimumSize(t *testing.T) {
	res := sliceResult(t)
	for _, tc := range []struct{ section, record, want string }{
		{SectionRecordText, "r1", res.Package.Records[0].Excerpt},
		{SectionPackage, "", string(res.Canonical)},
	} {
		var all strings.Builder
		slices, offset := 0, 0
		for {
			body, err := Slice(res, tc.section, tc.record, offset, MinReadBytes)
			if err != nil {
				t.Fatal(err)
			}
			if len(body) > MinReadBytes {
				t.Fatalf("%s: a %d-byte read over %d", tc.section, len(body), MinReadBytes)
			}
			var rd Read
			if err := json.Unmarshal(body, &rd); err != nil {
				t.Fatal(err)
			}
			if rd.ContentSHA256 != ContentHash([]byte(tc.want)) || rd.ReplayIdentity.Engine != "e/1" || rd.Offset != offset {
				t.Fatalf("%s: read %+v", tc.section, rd)
			}
			all.WriteString(rd.Data)
			slices++
			if rd.NextOffset == nil {
				break
			}
			offset = *rd.NextOffset
		}
		if all.String() != tc.want || slices < 3 {
			t.Fatalf("%s: %d slices concatenate to %d bytes, want %d", tc.section, slices, all.Len(), len(tc.want))
		}
	}
	units := utf16.Encode([]rune(res.Package.Records[0].Excerpt))
	inside := 1 // astral begins with a surrogate pair
	for _, bad := range []struct {
		section, record string
		offset, max     int
	}{
		{SectionRecordText, "r1", inside, 0},
		{SectionRecordText, "r1", len(units) + 1, 0},
		{SectionRecordText, "r1", -1, 0},
		{SectionRecordText, "r9", 0, 0},
		{SectionRecordText, "r1", 0, MinReadBytes - 1},
		{SectionRecordText, "r1", 0, MaxReadBytes + 1},
		{"diagnostics", "", 0, 0},
	} {
		if _, err := Slice(res, bad.section, bad.record, bad.offset, bad.max); CodeOf(err) != CodeInvalidRequest {
			t.Errorf("%+v: err = %v", bad, err)
		}
	}
}

// Over HTTP: a historical replay answers with the engine that rebuilt the
// package pinned in its continuation recipe; replaying or reading with it
// runs as that explicit engine, same digest, so the identity is kept.
func TestContinuationKeepsTheEngineIdentity(t *testing.T) {
	p := realPackage(t)
	s := newFakeStore()
	s.put(installCorpus, engines.Current().ID)
	r := mustNew(t, Config{Sources: s})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		(&Handler{Replayer: r, Read: req.URL.Path == "/read"}).ServeHTTP(w, req)
	}))
	defer srv.Close()
	post := func(path, body string) (int, map[string]json.RawMessage) {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]json.RawMessage
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	historical := p.Recipe()
	historical.EngineID = ""
	raw, _ := json.Marshal(map[string]any{"bundle": historical.Bundle, "version": historical.Version, "question": historical.Question, "budget": historical.Budget, "context_id": historical.ContextID})
	code, out := post("/replay", `{"recipe":`+string(raw)+`}`)
	if code != 200 {
		t.Fatalf("historical replay = %d %s", code, out["error"])
	}
	var id Identity
	json.Unmarshal(out["replay_identity"], &id)
	if id.Mode != ModeHistorical || id.Origin != nil || id.Engine != p.Engine || id.Digest != p.Digest || string(out["evidence"]) != string(p.JSON()) {
		t.Fatalf("historical identity %+v", id)
	}
	var fragment string
	json.Unmarshal(out["fragment"], &fragment)
	if fragment != p.Recipe().Fragment() {
		t.Fatalf("continuation fragment %q does not pin %s", fragment, p.Engine)
	}
	code, out = post("/read", `{"fragment":"`+fragment+`","record_id":"`+p.Records[0].ID+`"}`)
	var rd Read
	b, _ := json.Marshal(out)
	json.Unmarshal(b, &rd)
	if code != 200 || rd.ReplayIdentity.Mode != ModeExplicit || rd.ReplayIdentity.Origin == nil || *rd.ReplayIdentity.Origin != p.Engine ||
		rd.ReplayIdentity.Digest != p.Digest || rd.Data != p.Records[0].Excerpt {
		t.Fatalf("continuation read = %d %+v", code, rd)
	}
	// Refusals carry a code and no evidence.
	for body, want := range map[string]Code{
		`{"fragment":"` + fragment + `","recipe":{}}`: CodeInvalidRequest,
		`{"fragment":"not base64!"}`:                  CodeInvalidRequest,
		`{}`:                                          CodeInvalidRequest,
		`{"fragment":"` + fragment + `","offset":3}`:                                                               CodeInvalidRequest,
		`{"recipe":` + strings.Replace(string(raw), `"budget"`, `"engine_id":"askplane.bm25/0","budget"`, 1) + `}`: CodeEngineUnavailable,
	} {
		code, out := post("/replay", body)
		var e ErrorBody
		b, _ := json.Marshal(out)
		json.Unmarshal(b, &e)
		if e.Error.Code != want || code != want.Status() || out["evidence"] != nil {
			t.Errorf("%s = %d %s, want %s", body, code, b, want)
		}
	}
}

// ParseFragment reads every fragment evidence.DecodeFragment reads, as it
// reads them, and also fragments without engine_id or context_id.
func TestParseFragmentAgreesWithTheReviewLink(t *testing.T) {
	p := realPackage(t)
	want, err := evidence.DecodeFragment(p.Recipe().Fragment())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseFragment(p.Recipe().Fragment())
	if err != nil || got != want {
		t.Fatalf("ParseFragment = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{
		`{"bundle":"askplane.evidence","version":"` + p.SourceVersion + `","question":"q","budget":{"max_records":5,"max_bytes":16384},"extra":1}`,
		`{"bundle":"other","version":"` + p.SourceVersion + `","question":"q","budget":{"max_records":5,"max_bytes":16384}}`,
		`{"bundle":"askplane.evidence","version":"` + p.SourceVersion + `","question":"  ","budget":{"max_records":5,"max_bytes":16384}}`,
		`{"bundle":"askplane.evidence","version":"` + p.SourceVersion + `","question":"q","budget":{"max_records":99,"max_bytes":16384}}`,
		`{"bundle":"askplane.evidence","version":"` + p.SourceVersion + `","question":"q"}`,
	} {
		if _, err := ParseRecipe([]byte(bad)); CodeOf(err) != CodeInvalidRequest {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}
