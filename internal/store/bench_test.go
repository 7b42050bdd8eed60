package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
)

// BenchmarkSaveLoad measures one turn of the sidecar's persistence, a Save
// at the next revision then a Load, with a 20-message history of about
// 600 bytes a message (12 KB of JSON), on each backend. PostgreSQL runs
// when ASKPLANE_TEST_POSTGRES_URL is set (scripts/postgres.sh).
func BenchmarkSaveLoad(b *testing.B) {
	msgs := make([]protocol.AskMessage, 20)
	for i := range msgs {
		msgs[i] = storetest.Messages(fmt.Sprintf("%0600d", i), 1)[0]
	}
	b.Run("memory", func(b *testing.B) {
		s, err := store.Open(b.Context(), "memory:")
		if err != nil {
			b.Fatal(err)
		}
		benchSaveLoad(b, s, msgs)
	})
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.OpenSQLite(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchSaveLoad(b, s, msgs)
	})
	b.Run("postgres", func(b *testing.B) {
		if os.Getenv(storetest.PostgresEnv) == "" {
			b.Skipf("%s is unset", storetest.PostgresEnv)
		}
		s, err := store.OpenPostgres(b.Context(), postgresSchema(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchSaveLoad(b, s, msgs)
	})
}

func benchSaveLoad(b *testing.B, s session.Store, msgs []protocol.AskMessage) {
	k := session.Key{SiteID: "site-a", Subject: "anon:bench", SessionID: "bench"}
	b.ReportAllocs()
	rev := 0
	for b.Loop() {
		ok, err := s.Save(b.Context(), k, session.Record{Revision: rev + 1, Messages: msgs}, rev)
		if err != nil || !ok {
			b.Fatalf("Save = %v, %v", ok, err)
		}
		rev++
		r, err := s.Load(b.Context(), k)
		if err != nil || r.Revision != rev {
			b.Fatalf("Load = revision %d, %v", r.Revision, err)
		}
	}
}

// BenchmarkTurns is the sidecar's persistence under its load bench
// (scripts/bench-ask.sh): 32 readers at once, each its own subject, each
// turn a Load then a Save of the history with a new question and a
// ~600-byte answer, a new session every 4 turns. Besides wall time per
// turn it reports the process's CPU time per turn (cpu-ns/op), which a
// machine shared with other work skews less.
func BenchmarkTurns(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.OpenSQLite(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchTurns(b, s)
	})
	// The server's CPU is not this process's: ns/op, on a loaded machine,
	// is the figure to compare.
	b.Run("postgres", func(b *testing.B) {
		if os.Getenv(storetest.PostgresEnv) == "" {
			b.Skipf("%s is unset", storetest.PostgresEnv)
		}
		s, err := store.OpenPostgres(b.Context(), postgresSchema(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchTurns(b, s)
	})
}

func benchTurns(b *testing.B, s session.Store) {
	answer := fmt.Sprintf("%0600d", 0)
	var next atomic.Int64
	b.SetParallelism(16) // 32 goroutines on 2 CPUs
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		subject := fmt.Sprintf("anon:bench-%d", next.Add(1))
		turn := 0
		for pb.Next() {
			k := session.Key{SiteID: "site-a", Subject: subject, SessionID: fmt.Sprintf("s%d", turn/4)}
			r, err := s.Load(b.Context(), k)
			if err != nil {
				b.Fatal(err)
			}
			msgs := append(r.Messages, protocol.AskMessage{Role: protocol.RoleUser, Content: "how do I configure the widget?"},
				protocol.AskMessage{Role: protocol.RoleAssistant, Content: answer})
			if ok, err := s.Save(b.Context(), k, session.Record{Revision: r.Revision + 1, Messages: msgs}, r.Revision); err != nil || !ok {
				b.Fatalf("Save = %v, %v", ok, err)
			}
			turn++
		}
	})
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
