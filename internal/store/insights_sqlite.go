package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// sqliteInsightsMigration holds the insight tables (insights.go). Times
// are Unix milliseconds.
const sqliteInsightsMigration = `CREATE TABLE insight_events (
		site_id TEXT    NOT NULL,
		at      INTEGER NOT NULL,
		outcome TEXT    NOT NULL,
		lang    TEXT    NOT NULL,
		qkey    TEXT    NOT NULL,
		reader  TEXT    NOT NULL,
		pages   TEXT    NOT NULL
	) STRICT;
	CREATE INDEX insight_events_site_at ON insight_events (site_id, at);
	CREATE TABLE insight_term_readers (
		site_id TEXT    NOT NULL,
		term    TEXT    NOT NULL,
		reader  TEXT    NOT NULL,
		at      INTEGER NOT NULL,
		PRIMARY KEY (site_id, term, reader)
	) STRICT, WITHOUT ROWID;
	CREATE INDEX insight_term_readers_at ON insight_term_readers (site_id, at);
	CREATE TABLE insight_terms (
		site_id TEXT NOT NULL,
		term    TEXT NOT NULL,
		stem    TEXT NOT NULL,
		PRIMARY KEY (site_id, term)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE insight_keys (
		name TEXT    PRIMARY KEY,
		key  BLOB    NOT NULL,
		at   INTEGER NOT NULL
	) STRICT, WITHOUT ROWID`

// InsightKey implements Insights.
func (s *SQLite) InsightKey(ctx context.Context, name string, fresh []byte, drop string) ([]byte, error) {
	const op = "insight key"
	if err := checkInsightKey(name, fresh); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, unavailable(ctx, op, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO insight_keys (name, key, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		name, fresh, time.Now().UnixMilli()); err != nil {
		return nil, unavailable(ctx, op, err)
	}
	if drop != "" {
		if _, err := tx.ExecContext(ctx, `DELETE FROM insight_keys WHERE substr(name, 1, ?) = ? AND name <> ?`,
			len(drop), drop, name); err != nil {
			return nil, unavailable(ctx, op, err)
		}
	}
	var key []byte
	if err := tx.QueryRowContext(ctx, `SELECT key FROM insight_keys WHERE name = ?`, name).Scan(&key); err != nil {
		return nil, unavailable(ctx, op, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, unavailable(ctx, op, err)
	}
	return key, nil
}

// PutInsight implements Insights.
func (s *SQLite) PutInsight(ctx context.Context, p InsightPut) error {
	return s.PutInsights(ctx, []InsightPut{p})
}

// PutInsights implements Insights: one transaction, the events in one
// statement, the hidden terms' statements prepared once for the batch.
func (s *SQLite) PutInsights(ctx context.Context, ps []InsightPut) error {
	const op = "put insight"
	if err := checkInsightPuts(ps); err != nil || len(ps) == 0 {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return unavailable(ctx, op, err)
	}
	defer tx.Rollback()
	var sighting, reveal *sql.Stmt
	prepare := func(st **sql.Stmt, q string) error {
		if *st != nil {
			return nil
		}
		var err error
		*st, err = tx.PrepareContext(ctx, q)
		return err
	}
	defer func() {
		for _, st := range []*sql.Stmt{sighting, reveal} {
			if st != nil {
				st.Close()
			}
		}
	}()
	// The events: one INSERT of every row (a statement a row cost more
	// than the rows themselves).
	var q strings.Builder
	q.WriteString(`INSERT INTO insight_events (site_id, at, outcome, lang, qkey, reader, pages) VALUES `)
	args := make([]any, 0, 7*len(ps))
	for i, p := range ps {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?, ?, ?)")
		e := p.Event
		args = append(args, e.Site, e.At.UnixMilli(), e.Outcome, e.Lang, e.Key, e.Reader, joinPages(e.Pages))
	}
	if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
		return unavailable(ctx, op, err)
	}
	for _, p := range ps {
		e := p.Event
		at := e.At.UnixMilli()
		for _, h := range p.Hidden {
			if err := prepare(&sighting, `INSERT INTO insight_term_readers (site_id, term, reader, at) VALUES (?, ?, ?, ?)
				ON CONFLICT DO UPDATE SET at = max(at, excluded.at)`); err != nil {
				return unavailable(ctx, op, err)
			}
			if _, err := sighting.ExecContext(ctx, e.Site, h.Hash, e.Reader, at); err != nil {
				return unavailable(ctx, op, err)
			}
			// Revealed in the same statement that counts the crowd: not
			// counted again once revealed, and counted only up to the
			// crowd (a popular term has thousands of readers).
			if err := prepare(&reveal, `INSERT INTO insight_terms (site_id, term, stem) SELECT ?1, ?2, ?3
				WHERE NOT EXISTS (SELECT 1 FROM insight_terms WHERE site_id = ?1 AND term = ?2)
				AND (SELECT count(*) FROM (SELECT 1 FROM insight_term_readers WHERE site_id = ?1 AND term = ?2 AND at >= ?4 LIMIT ?5)) >= ?5
				ON CONFLICT DO NOTHING`); err != nil {
				return unavailable(ctx, op, err)
			}
			if _, err := reveal.ExecContext(ctx, e.Site, h.Hash, h.Stem, p.Since.UnixMilli(), p.MinCrowd); err != nil {
				return unavailable(ctx, op, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return unavailable(ctx, op, err)
	}
	return nil
}

// InsightEvents implements Insights.
func (s *SQLite) InsightEvents(ctx context.Context, site string, since time.Time) ([]InsightEvent, error) {
	const op = "insight events"
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, `SELECT at, outcome, lang, qkey, reader, pages FROM insight_events
		WHERE site_id = ? AND at >= ? ORDER BY at DESC LIMIT ?`, site, since.UnixMilli(), MaxInsightEvents)
	if err != nil {
		return nil, unavailable(ctx, op, err)
	}
	defer rows.Close()
	var out []InsightEvent
	for rows.Next() {
		var e InsightEvent
		var at int64
		var pages string
		if err := rows.Scan(&at, &e.Outcome, &e.Lang, &e.Key, &e.Reader, &pages); err != nil {
			return nil, unavailable(ctx, op, err)
		}
		e.Site, e.At, e.Pages = site, time.UnixMilli(at).UTC(), splitPages(pages)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(ctx, op, err)
	}
	return out, nil
}

// InsightTerms implements Insights.
func (s *SQLite) InsightTerms(ctx context.Context, site string) (map[string]string, error) {
	const op = "insight terms"
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, `SELECT term, stem FROM insight_terms WHERE site_id = ?`, site)
	if err != nil {
		return nil, unavailable(ctx, op, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var h, st string
		if err := rows.Scan(&h, &st); err != nil {
			return nil, unavailable(ctx, op, err)
		}
		out[h] = st
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(ctx, op, err)
	}
	return out, nil
}

// PruneInsights implements Insights.
func (s *SQLite) PruneInsights(ctx context.Context, site string, before time.Time) error {
	return s.pruneInsights(ctx, site, before, MaxInsightEvents)
}

func (s *SQLite) pruneInsights(ctx context.Context, site string, before time.Time, maxEvents int) error {
	const op = "prune insights"
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	b := before.UnixMilli()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM insight_events WHERE site_id = ? AND at < ?`, []any{site, b}},
		{`DELETE FROM insight_events WHERE site_id = ? AND at < (SELECT at FROM insight_events WHERE site_id = ? ORDER BY at DESC LIMIT 1 OFFSET ?)`,
			[]any{site, site, maxEvents - 1}},
		{`DELETE FROM insight_term_readers WHERE site_id = ? AND at < ?`, []any{site, b}},
		{`DELETE FROM insight_term_readers WHERE site_id = ? AND at < (SELECT at FROM insight_term_readers WHERE site_id = ? ORDER BY at DESC LIMIT 1 OFFSET ?)`,
			[]any{site, site, maxEvents*insightReadersFactor - 1}},
		{`DELETE FROM insight_terms WHERE site_id = ? AND NOT EXISTS
			(SELECT 1 FROM insight_term_readers r WHERE r.site_id = insight_terms.site_id AND r.term = insight_terms.term)`, []any{site}},
	} {
		if _, err := s.db.ExecContext(ctx, q.sql, q.args...); err != nil {
			return unavailable(ctx, op, err)
		}
	}
	return nil
}

var _ Insights = (*SQLite)(nil)
