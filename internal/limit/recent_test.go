package limit

import (
	"strconv"
	"testing"
	"time"
)

// Recent forgets the oldest key past its bound, and every key past its
// ttl; adding a key again renews it without taking a second place.
func TestRecentBoundAndTTL(t *testing.T) {
	now := time.Unix(0, 0)
	r := NewRecent[int](3, time.Hour, func() time.Time { return now })
	for i := range 4 {
		r.Add("k"+strconv.Itoa(i), i)
	}
	if _, ok := r.Get("k0"); ok {
		t.Error("k0 outlived the bound of 3")
	}
	if v, ok := r.Get("k3"); !ok || v != 3 {
		t.Errorf("k3 = %d, %v", v, ok)
	}
	r.Add("k3", 30) // renewed, not a fourth place: k1..k3 stay
	if _, ok := r.Get("k1"); !ok {
		t.Error("re-adding k3 pushed k1 out")
	}
	if len(r.m) > 3 {
		t.Errorf("holds %d keys", len(r.m))
	}
	now = now.Add(time.Hour)
	if _, ok := r.Get("k3"); ok {
		t.Error("k3 outlived its ttl")
	}
	var none *Recent[int]
	if _, ok := none.Get("k"); ok {
		t.Error("a nil Recent holds a key")
	}
}
