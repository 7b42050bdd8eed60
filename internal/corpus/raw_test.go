package corpus

import (
	"bytes"
	"testing"
)

// LoadDirRaw returns the very bytes the corpus was verified from, so a
// holder can check them again by hash; a refused corpus returns none.
func TestLoadDirRawReturnsTheVerifiedBytes(t *testing.T) {
	c, raw, err := LoadDirRaw(site(tinyCorpus, ""), "en")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, []byte(tinyCorpus)) || ContentHash(raw) != c.Version {
		t.Fatalf("raw bytes (%d) do not hash to the version %s", len(raw), c.Version)
	}
	c, raw, err = LoadDirRaw(site(tinyCorpus, ContentHash([]byte("other"))), "en")
	if CodeOf(err) != CodeMismatch || c != nil || raw != nil {
		t.Fatalf("a corpus failing its hash: %v, %v, %d bytes", c, err, len(raw))
	}
}
