package store_test

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
)

// corruptRows are stored rows a Load must refuse with CodeCorrupt: each
// breaks one rule of the record schema.
var corruptRows = []struct {
	name     string
	messages string
}{
	{"NotJSON", `not json`},
	{"Truncated", `[{"role":"user","content":"a"}`},
	{"TrailingData", `[] []`},
	{"Object", `{"role":"user","content":"a"}`},
	{"Null", `null`},
	{"ItemNotObject", `["user"]`},
	{"MissingContent", `[{"role":"user"}]`},
	{"MissingRole", `[{"content":"a"}]`},
	{"ExtraMember", `[{"role":"user","content":"a","at":1}]`},
	{"RepeatedMember", `[{"role":"user","content":"a","content":"b"}]`},
	{"UnknownRole", `[{"role":"system","content":"a"}]`},
	{"RoleCase", `[{"role":"User","content":"a"}]`},
	{"ContentNotString", `[{"role":"user","content":1}]`},
	{"TooMany", "[" + strings.Repeat(`{"role":"user","content":"a"},`, store.MaxMessages) + `{"role":"user","content":"a"}]`},
	{"ContentTooLong", `[{"role":"user","content":"` + strings.Repeat("a", store.MaxContentLen+1) + `"}]`},
	{"Deep", strings.Repeat("[", 10000) + strings.Repeat("]", 10000)},
	{"TooLarge", `[{"role":"user","content":"` + strings.Repeat(" ", store.MaxEncodedBytes) + `"}]`},
}

// checkCorruptLoads loads each corrupt row, written by put under the key
// of its name, and wants CodeCorrupt whose text quotes nothing stored.
func checkCorruptLoads(t *testing.T, s session.Store, put func(k session.Key, messages string)) {
	for _, c := range corruptRows {
		k := session.Key{SiteID: "site-a", Subject: "anon:corrupt", SessionID: c.name}
		put(k, c.messages)
		r, err := s.Load(t.Context(), k)
		if store.CodeOf(err) != store.CodeCorrupt {
			t.Errorf("%s: Load = %+v, %v; want %s", c.name, r, err, store.CodeCorrupt)
			continue
		}
		if r.Revision != 0 || r.Messages != nil {
			t.Errorf("%s: a corrupt row returned a partial record %+v", c.name, r)
		}
		if strings.Contains(err.Error(), "system") || strings.Contains(err.Error(), "json") {
			t.Errorf("%s: the error quotes the row: %v", c.name, err)
		}
	}
}
