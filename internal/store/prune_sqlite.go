package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// SQLite's pruning reads the index every save keeps anyway,
// sessions_subject_recent (site_id, subject, updated_at, session_id,
// bytes), rather than an index of its own on updated_at: that one cost
// every save a WAL frame and two b-tree seeks, for a scan that runs once
// an hour. The scan walks the whole index once a Prune, in batches that
// resume after the last key deleted (so a batch never reads again what
// the one before it kept), each batch one statement: the write lock is
// never held for long.
const (
	// sqlitePruneBatch deletes up to ?6 sessions written before ?5 whose
	// index key comes after (?1, ?2, ?3, ?4), and returns their keys.
	sqlitePruneBatch = `DELETE FROM sessions WHERE (site_id, subject, session_id) IN (
		SELECT site_id, subject, session_id FROM sessions INDEXED BY sessions_subject_recent
		WHERE (site_id, subject, updated_at, session_id) > (?1, ?2, ?3, ?4) AND updated_at < ?5
		ORDER BY site_id, subject, updated_at, session_id LIMIT ?6)
		RETURNING site_id, subject, updated_at, session_id`
	// sqliteTotalBytes is every session's bytes, from the subjects' sums
	// the triggers keep (subject_sqlite.go).
	sqliteTotalBytes = `SELECT coalesce(sum(bytes), 0) FROM session_subjects`
	// sqlitePruneCutoff is the newest updated_at whose row does not fit
	// beside the rows written after it, ?1 the bound.
	sqlitePruneCutoff = `SELECT max(updated_at) FROM (
		SELECT updated_at, sum(bytes) OVER (ORDER BY updated_at DESC ROWS UNBOUNDED PRECEDING) AS newer FROM sessions)
		WHERE newer > ?1`
)

// Prune implements Pruner.
func (s *SQLite) Prune(ctx context.Context, before time.Time) (int64, error) {
	total, err := s.pruneBefore(ctx, before.UnixMilli())
	if err != nil {
		return total, err
	}
	// The total bound: the newest row that does not fit beside the rows
	// written after it, and every row written no later, go. Summing the
	// subjects first spares the sort of every row when the store fits.
	qctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var sum int64
	if err := s.db.QueryRowContext(qctx, sqliteTotalBytes).Scan(&sum); err != nil {
		return total, unavailable(qctx, "prune", err)
	}
	if sum <= s.limits.MaxTotalBytes {
		return total, nil
	}
	var cutoff sql.NullInt64
	if err := s.db.QueryRowContext(qctx, sqlitePruneCutoff, s.limits.MaxTotalBytes).Scan(&cutoff); err != nil {
		return total, unavailable(qctx, "prune", err)
	}
	if !cutoff.Valid {
		return total, nil
	}
	n, err := s.pruneBefore(ctx, cutoff.Int64+1)
	return total + n, err
}

// pruneKey is a position in sessions_subject_recent.
type pruneKey struct {
	site, subject string
	updated       int64
	session       string
}

// after reports whether k comes after o in the index's order.
func (k pruneKey) after(o pruneKey) bool {
	switch {
	case k.site != o.site:
		return k.site > o.site
	case k.subject != o.subject:
		return k.subject > o.subject
	case k.updated != o.updated:
		return k.updated > o.updated
	}
	return k.session > o.session
}

// pruneBefore deletes every session written before beforeMillis, in
// batches of pruneBatch, each resuming after the last key the one before
// deleted.
func (s *SQLite) pruneBefore(ctx context.Context, beforeMillis int64) (int64, error) {
	var total int64
	from := pruneKey{updated: -1 << 63} // before every key: no key part is empty
	for {
		n, last, err := s.pruneBatch(ctx, from, beforeMillis)
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
		from = last
	}
}

func (s *SQLite) pruneBatch(ctx context.Context, from pruneKey, beforeMillis int64) (int64, pruneKey, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, sqlitePruneBatch, from.site, from.subject, from.updated, from.session, beforeMillis, pruneBatch)
	if err != nil {
		return 0, from, unavailable(ctx, "prune", err)
	}
	defer rows.Close()
	var n int64
	last := from
	for rows.Next() {
		var k pruneKey
		if err := rows.Scan(&k.site, &k.subject, &k.updated, &k.session); err != nil {
			return n, last, unavailable(ctx, "prune", err)
		}
		n++
		if k.after(last) {
			last = k
		}
	}
	// The statement commits when its rows close: a failed commit is the
	// batch's error.
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return n, last, unavailable(ctx, "prune", err)
	}
	return n, last, nil
}
