package grounding_test

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/grounding"
)

// Valid keeps, in order and trimmed, at most max candidates that pass the
// source schema, and drops the rest silently.
func TestValidKeepsSchemaSourcesInOrder(t *testing.T) {
	ok := grounding.Source{ID: "a1", Title: " Install ", Href: "/docs/install/", Excerpt: " Run it. "}
	list := []grounding.Source{
		{ID: "bad id", Title: "T", Href: "/x/", Excerpt: "e"},
		ok,
		{ID: "b2", Title: "", Href: "/y/", Excerpt: "e"},
		{ID: "c3", Title: strings.Repeat("t", grounding.MaxSourceTitleLen+1), Href: "/z/", Excerpt: "e"},
		{ID: "d4", Title: "T", Href: "javascript:alert(1)", Excerpt: "e"},
		{ID: "e5", Title: "Second", Href: "/docs/second/", Excerpt: "more"},
		{ID: "f6", Title: "Third", Href: "/docs/third/", Excerpt: "more"},
	}
	got := grounding.Valid(list, 2)
	if len(got) != 2 || got[0].ID != "a1" || got[0].Title != "Install" || got[0].Excerpt != "Run it." || got[1].ID != "e5" {
		t.Fatalf("got %+v", got)
	}
	if pages := grounding.OutcomePages(append(got, got...)); len(pages) != 3 || pages[0] != "/docs/install/" {
		t.Fatalf("outcome pages %v", pages)
	}
}
