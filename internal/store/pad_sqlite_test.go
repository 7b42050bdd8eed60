package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// walFrames is how many frames the WAL of the file at path holds, after
// raw truncated it.
func walFrames(t *testing.T, path string) int64 {
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() <= 32 {
		return 0
	}
	return (fi.Size() - 32) / (4096 + 24) // the WAL header, then a header and a page a frame
}

// A turn that grows a session within its row's capacity class is written
// in place: SQLite writes only the pages whose bytes changed, not the
// whole history's overflow chain and the freelist's pages. Load gives back
// exactly what was saved, and the messages column holds the JSON as the
// other backends store it.
func TestSQLiteSaveWithinClassWritesInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pad.db")
	s := openSQLite(t, path)
	raw := rawSQLite(t, path)
	k := session.Key{SiteID: "site-a", Subject: "anon:pad", SessionID: "s1"}
	answer := fmt.Sprintf("%01500d", 0)
	var frames []int64
	var msgs []protocol.AskMessage
	for turn := range 4 {
		msgs = append(msgs, protocol.AskMessage{Role: protocol.RoleUser, Content: "how do I configure the widget?"},
			protocol.AskMessage{Role: protocol.RoleAssistant, Content: answer})
		if _, err := raw.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.Save(t.Context(), k, session.Record{Revision: turn + 1, Messages: msgs}, turn); err != nil || !ok {
			t.Fatalf("turn %d: Save = %v, %v", turn, ok, err)
		}
		frames = append(frames, walFrames(t, path))
		got, err := s.Load(t.Context(), k)
		if err != nil || got.Revision != turn+1 || !slices.Equal(got.Messages, msgs) {
			t.Fatalf("turn %d: Load = revision %d, %d messages, %v; want %d, %d", turn, got.Revision, len(got.Messages), err, turn+1, len(msgs))
		}
	}
	// Records of about 1.7, 3.3, 4.9 and 6.5 KB: turn 2 stays in the
	// first class (a page's whole row), turn 3 moves to 8 KiB, where turn
	// 4 stays. Unpadded, in the WITHOUT ROWID table every turn rewrote the
	// row's overflow chain: 6, 7, 7 and 8 frames; now 4, 3, 6 and 4.
	t.Logf("WAL frames a turn: %v", frames)
	for _, turn := range []int{1, 3} {
		if frames[turn] > 4 || frames[turn] >= frames[2] {
			t.Errorf("WAL frames a turn = %v: turn %d, within its class, was not written in place", frames, turn+1)
		}
	}
	var stored string
	var pad int
	if err := raw.QueryRow(`SELECT messages, length(pad) FROM sessions`).Scan(&stored, &pad); err != nil {
		t.Fatal(err)
	}
	if size := session.Size(session.Record{Messages: msgs}); int64(len(stored)) != size-session.RecordOverheadBytes || pad == 0 {
		t.Errorf("stored messages %d bytes and a pad of %d, the JSON %d: want the JSON as it is, padded beside it", len(stored), pad, size-session.RecordOverheadBytes)
	}
}
