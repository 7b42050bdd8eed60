package store_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
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
		var ce *session.CorruptError
		if !errors.As(err, &ce) || ce.Revision != 1 || !errors.Is(err, session.ErrCorrupt) {
			t.Errorf("%s: err = %v holds no *session.CorruptError at revision 1", c.name, err)
		}
		if strings.Contains(err.Error(), "system") || strings.Contains(err.Error(), "json") {
			t.Errorf("%s: the error quotes the row: %v", c.name, err)
		}
	}
}

// checkCorruptOverwrite: a corrupt row at revision 7 loads as a
// *session.CorruptError carrying 7, and a Save at expected revision 7
// replaces it, as the Ask handler does to start the conversation again.
func checkCorruptOverwrite(t *testing.T, s session.Store, put func(k session.Key, revision int, messages string)) {
	k := session.Key{SiteID: "site-a", Subject: "anon:corrupt", SessionID: "overwrite"}
	put(k, 7, `[{"role":"system","content":"a"}]`)
	_, err := s.Load(t.Context(), k)
	var ce *session.CorruptError
	if !errors.As(err, &ce) || ce.Revision != 7 || !errors.Is(err, session.ErrCorrupt) || store.CodeOf(err) != store.CodeCorrupt {
		t.Fatalf("Load of a corrupt row: err = %v; want %s holding a *session.CorruptError at revision 7", err, store.CodeCorrupt)
	}
	// The compare-and-swap still guards the row.
	storetest.MustSave(t, s, k, session.Record{Revision: 7, Messages: storetest.Messages("stale", 1)}, 6, false)
	storetest.MustSave(t, s, k, session.Record{Revision: 1, Messages: storetest.Messages("new", 1)}, 0, false)
	fresh := session.Record{Revision: ce.Revision + 1, Messages: storetest.Messages("again", 2)}
	storetest.MustSave(t, s, k, fresh, ce.Revision, true)
	storetest.Equal(t, storetest.MustLoad(t, s, k), fresh)
}
