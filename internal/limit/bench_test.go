package limit

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("2001:db8:%x:%x::/64", i>>16, i&0xffff)
	}
	return keys
}

// Many clients, all tracked: the common case.
func BenchmarkKeyedAllowParallel(b *testing.B) {
	k, _ := NewKeyed(KeyedConfig{Rate: Rate{1_000_000, time.Hour}})
	keys := benchKeys(10_000)
	var next atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := next.Add(7919)
		for pb.Next() {
			k.Allow(keys[i%uint64(len(keys))])
			i++
		}
	})
}

// One hot key: every goroutine on one shard's lock.
func BenchmarkKeyedAllowParallelOneKey(b *testing.B) {
	k, _ := NewKeyed(KeyedConfig{Rate: Rate{1_000_000, time.Hour}})
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			k.Allow("2001:db8::/64")
		}
	})
}

// More clients than MaxKeys: every new key evicts one.
func BenchmarkKeyedAllowParallelEvicting(b *testing.B) {
	k, _ := NewKeyed(KeyedConfig{Rate: Rate{1_000_000, time.Hour}, MaxKeys: 4096})
	keys := benchKeys(100_000)
	var next atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := next.Add(7919)
		for pb.Next() {
			k.Allow(keys[i%uint64(len(keys))])
			i++
		}
	})
}

func BenchmarkGateAcquireRelease(b *testing.B) {
	g, _ := NewGate(GateConfig{Slots: 8, Queue: 16, MaxWait: 2 * time.Second})
	ctx := context.Background()
	for b.Loop() {
		release, err := g.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
}

// More goroutines than slots: some wait in the queue.
func BenchmarkGateAcquireReleaseParallel(b *testing.B) {
	g, _ := NewGate(GateConfig{Slots: 2, Queue: 1 << 16, MaxWait: time.Minute})
	ctx := context.Background()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			release, err := g.Acquire(ctx)
			if err != nil {
				b.Error(err)
				return
			}
			release()
		}
	})
}
