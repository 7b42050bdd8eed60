package store

import (
	"github.com/askplane/askplane/internal/session"
)

// A session's row in SQLite is padded to a capacity class: its last
// column, pad, holds the zeros that make the row's record (SQLite's
// encoding of all its columns) exactly a class's length. An answer that
// grows its session within the class then rewrites a row of the same
// length, which SQLite overwrites in place, writing only the pages whose
// bytes changed. A row of another length is a new cell: in a page too
// full for it the page is split and its neighbours and parent written
// too, and with an overflow chain the chain is freed and allocated again,
// every page of the history written anew with the freelist's pages. A
// 4-turn session with 1.5 KB answers wrote 6, 7, 7 and 8 WAL frames (two
// pwrite calls each) for its turns in the WITHOUT ROWID table before, and
// writes 4, 3, 6 and 4 now; under the load bench's turns (~600 B answers,
// 32 readers) about 3.9 frames a save.
//
// The messages text stays byte for byte what the other backends store,
// and Load never reads pad: it comes after the columns Load selects, so
// SQLite stops reading the row before it.
//
// The first class, sqliteRowLocal, is the most a rowid table's leaf holds
// of a row without an overflow page: a short session fills a page of its
// own, whole. Longer ones take 8 and 16 KiB, then steps of sqliteRowStep,
// so a row takes at most about twice its record's bytes when small and
// less than sqliteRowStep more when large (the bounds count session.Size,
// never the padding). An eviction empties pad with the messages.
const (
	sqliteRowLocal    = 4096 - 35 // the page size less a table leaf cell's most overhead
	sqliteMinRowClass = 8 << 10
	sqliteRowStep     = 16 << 10
)

// sqliteRowClass is the capacity class of a record of need bytes.
func sqliteRowClass(need int64) int64 {
	if need > sqliteRowStep {
		return (need + sqliteRowStep - 1) / sqliteRowStep * sqliteRowStep
	}
	if need <= sqliteRowLocal {
		return sqliteRowLocal
	}
	class := int64(sqliteMinRowClass)
	for class < need {
		class *= 2
	}
	return class
}

// sqlitePadLen is the length of the pad that makes the sessions row of k
// with these values, and messages of msgLen bytes, a class's length.
func sqlitePadLen(k session.Key, revision, bytes, updatedAt int64, msgLen int) int64 {
	need := sqliteRecordLen(k, revision, bytes, updatedAt, msgLen, 0)
	class := sqliteRowClass(need)
	pad := class - need
	// The pad's serial type takes a byte or two of the header: settle on
	// the longest pad that fits.
	for pad > 0 && sqliteRecordLen(k, revision, bytes, updatedAt, msgLen, pad) > class {
		pad--
	}
	return pad
}

// sqliteRecordLen is the length of SQLite's record of a sessions row: its
// columns in table order (a rowid table's record; the rowid is the cell's
// key, not the record's), each described by a serial type in the header.
func sqliteRecordLen(k session.Key, revision, bytes, updatedAt int64, msgLen int, padLen int64) int64 {
	var hdr, body int64
	text := func(n int) {
		hdr += varintLen(uint64(2*n + 13))
		body += int64(n)
	}
	blob := func(n int64) {
		hdr += varintLen(uint64(2*n + 12))
		body += n
	}
	integer := func(v int64) {
		hdr++ // serial types of integers are 0..9: one byte
		body += intLen(v)
	}
	text(len(k.SiteID))
	text(len(k.Subject))
	text(len(k.SessionID))
	integer(revision)
	integer(bytes)
	integer(updatedAt)
	text(msgLen)
	blob(padLen)
	h := hdr + 1
	for varintLen(uint64(h)) != h-hdr {
		h = hdr + varintLen(uint64(h))
	}
	return h + body
}

// intLen is how many bytes SQLite's record format stores v in.
func intLen(v int64) int64 {
	switch {
	case v == 0 || v == 1:
		return 0
	case v >= -128 && v <= 127:
		return 1
	case v >= -32768 && v <= 32767:
		return 2
	case v >= -8388608 && v <= 8388607:
		return 3
	case v >= -2147483648 && v <= 2147483647:
		return 4
	case v >= -140737488355328 && v <= 140737488355327:
		return 6
	}
	return 8
}

// varintLen is the length of SQLite's varint of v.
func varintLen(v uint64) int64 {
	n := int64(1)
	for v >>= 7; v != 0 && n < 9; v >>= 7 {
		n++
	}
	return n
}
