package store_test

import (
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
)

// bigRecord is a record of about n bytes, which a full disk cannot take.
// (in messages of at most 15,000).
func bigRecord(rev, n int) session.Record {
	r := session.Record{Revision: rev}
	for i := 0; n > 0; i++ {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		c := min(n, 15_000)
		r.Messages = append(r.Messages, protocol.AskMessage{Role: role, Content: strings.Repeat("x", c)})
		n -= c
	}
	return r
}

// waitCheck polls Check until it is nil or d passed, and returns the last
// error.
func waitCheck(t *testing.T, s *store.SQLite, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		err := s.Check(t.Context())
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Issue 25: on a full disk, 3,920 of 4,000 answers ended ASK_INTERNAL
// while /ready stayed 200, since Check only takes the write lock, which
// needs no space. A save that fails for lack of space now makes Check
// and Writable fail with STORE_WRITE_FAILED until a write (or a probe
// write, at most one a second) succeeds again. A real full disk: a 1 MiB
// tmpfs (as root; skipped where it cannot be mounted).
func TestSQLiteFullDiskFailsCheckUntilAWriteSucceeds(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := osexec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { osexec.Command("umount", "-l", dir).Run() })
	s := openSQLite(t, filepath.Join(dir, "sessions.db"))
	k := session.Key{SiteID: "docs", Subject: "anon:a", SessionID: "s1"}
	if err := s.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Fill the disk.
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()

	if ok, err := s.Save(t.Context(), k, bigRecord(1, 60_000), 0); ok || store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Save on a full disk = %v, %v; want a failure", ok, err)
	}
	if err := s.Check(t.Context()); store.CodeOf(err) != store.CodeWriteFailed {
		t.Fatalf("Check after a failed save on a full disk = %v; want %s", err, store.CodeWriteFailed)
	}
	if err := s.Writable(t.Context()); store.CodeOf(err) != store.CodeWriteFailed {
		t.Fatalf("Writable = %v; want %s", err, store.CodeWriteFailed)
	}
	os.Remove(filler)
	if err := waitCheck(t, s, 5*time.Second); err != nil {
		t.Fatalf("Check with the space back = %v; want nil once a probe wrote", err)
	}
	saveAgain(t, s, k)
}

// saveAgain saves once more, as the store works again.
func saveAgain(t *testing.T, s *store.SQLite, k session.Key) {
	t.Helper()
	if ok, err := s.Save(t.Context(), k, bigRecord(1, 60_000), 0); !ok || err != nil {
		t.Fatalf("Save with the space back = %v, %v", ok, err)
	}
	if err := s.Writable(t.Context()); err != nil {
		t.Fatalf("Writable after a save = %v", err)
	}
}

// The same with an injected write error (any write fault counts, not only
// ENOSPC): the fault is remembered past the failed save, a probe that
// fails keeps it, and a save that succeeds clears it at once.
func TestSQLiteWriteFaultFailsCheckUntilAWriteSucceeds(t *testing.T) {
	s := openSQLite(t, filepath.Join(t.TempDir(), "sessions.db"))
	k := session.Key{SiteID: "docs", Subject: "anon:a", SessionID: "s1"}
	faulty := errors.New("disk I/O error")
	store.InjectWriteFault(s, func(string) error { return faulty })
	if ok, err := s.Save(t.Context(), k, bigRecord(1, 100), 0); ok || store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Save with a write fault = %v, %v", ok, err)
	}
	for range 2 {
		if err := s.Check(t.Context()); store.CodeOf(err) != store.CodeWriteFailed || strings.Contains(err.Error(), "disk I/O") {
			t.Fatalf("Check = %v; want %s, naming no cause", err, store.CodeWriteFailed)
		}
	}
	store.InjectWriteFault(s, nil)
	saveAgain(t, s, k)
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check after a save succeeded = %v", err)
	}
}

// PostgreSQL remembers a failed write the same way (its server's disk
// full: SQLSTATE 53100), and a probe write clears it.
func TestPostgresWriteFaultFailsCheckUntilAWriteSucceeds(t *testing.T) {
	s := openPostgres(t, postgresSchema(t))
	k := session.Key{SiteID: "docs", Subject: "anon:a", SessionID: "s1"}
	full := true
	store.InjectPostgresWriteFault(s, func(string) error {
		if full {
			return errors.New("could not extend file: No space left on device")
		}
		return nil
	})
	if ok, err := s.Save(t.Context(), k, bigRecord(1, 100), 0); ok || store.CodeOf(err) != store.CodeUnavailable {
		t.Fatalf("Save with a write fault = %v, %v", ok, err)
	}
	if err := s.Check(t.Context()); store.CodeOf(err) != store.CodeWriteFailed {
		t.Fatalf("Check = %v; want %s", err, store.CodeWriteFailed)
	}
	if err := s.Writable(t.Context()); store.CodeOf(err) != store.CodeWriteFailed {
		t.Fatalf("Writable = %v; want %s", err, store.CodeWriteFailed)
	}
	full = false
	deadline := time.Now().Add(5 * time.Second)
	for s.Check(t.Context()) != nil {
		if time.Now().After(deadline) {
			t.Fatal("Check still fails with the fault gone: the probe write never cleared it")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if ok, err := s.Save(t.Context(), k, bigRecord(1, 100), 0); !ok || err != nil {
		t.Fatalf("Save with the fault gone = %v, %v", ok, err)
	}
}
