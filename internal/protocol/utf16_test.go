package protocol

import "testing"

func TestTruncateUTF16(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 2, "ab"}, {"abc", 5, "abc"}, {"a🙂b", 2, "a"}, {"a🙂b", 3, "a🙂"}, {"ééé", 2, "éé"}, {"", 0, ""},
	} {
		if got := TruncateUTF16(tc.in, tc.max); got != tc.want {
			t.Errorf("TruncateUTF16(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
	if n := UTF16Len("a🙂é"); n != 4 {
		t.Errorf("UTF16Len = %d, want 4", n)
	}
}
