package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// postgresInsightsMigration holds the insight tables (insights.go). Times
// are Unix milliseconds, as on SQLite.
const postgresInsightsMigration = `CREATE TABLE insight_events (
		site_id text   NOT NULL,
		at      bigint NOT NULL,
		outcome text   NOT NULL,
		lang    text   NOT NULL,
		qkey    text   NOT NULL,
		reader  text   NOT NULL,
		pages   text   NOT NULL
	);
	CREATE INDEX insight_events_site_at ON insight_events (site_id, at);
	CREATE TABLE insight_term_readers (
		site_id text   NOT NULL,
		term    text   NOT NULL,
		reader  text   NOT NULL,
		at      bigint NOT NULL,
		PRIMARY KEY (site_id, term, reader)
	);
	CREATE INDEX insight_term_readers_at ON insight_term_readers (site_id, at);
	CREATE TABLE insight_terms (
		site_id text NOT NULL,
		term    text NOT NULL,
		stem    text NOT NULL,
		PRIMARY KEY (site_id, term)
	);
	CREATE TABLE insight_keys (
		name text   PRIMARY KEY,
		key  bytea  NOT NULL,
		at   bigint NOT NULL
	)`

// InsightKey implements Insights.
func (p *Postgres) InsightKey(ctx context.Context, name string, fresh []byte, drop string) ([]byte, error) {
	const op = "insight key"
	if err := checkInsightKey(name, fresh); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var key []byte
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO insight_keys (name, key, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			name, fresh, time.Now().UnixMilli()); err != nil {
			return err
		}
		if drop != "" {
			if _, err := tx.Exec(ctx, `DELETE FROM insight_keys WHERE left(name, $1) = $2 AND name <> $3`, len([]rune(drop)), drop, name); err != nil {
				return err
			}
		}
		return tx.QueryRow(ctx, `SELECT key FROM insight_keys WHERE name = $1`, name).Scan(&key)
	})
	if err != nil {
		return nil, p.unavailable(ctx, op, err)
	}
	return key, nil
}

// PutInsight implements Insights.
func (p *Postgres) PutInsight(ctx context.Context, in InsightPut) error {
	return p.PutInsights(ctx, []InsightPut{in})
}

// PutInsights implements Insights: one transaction (pgx prepares and
// caches each statement on its connection).
func (p *Postgres) PutInsights(ctx context.Context, ps []InsightPut) error {
	const op = "put insight"
	if err := checkInsightPuts(ps); err != nil || len(ps) == 0 {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		for _, in := range ps {
			e := in.Event
			at := e.At.UnixMilli()
			if _, err := tx.Exec(ctx, `INSERT INTO insight_events (site_id, at, outcome, lang, qkey, reader, pages) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				e.Site, at, e.Outcome, e.Lang, e.Key, e.Reader, joinPages(e.Pages)); err != nil {
				return err
			}
			for _, h := range in.Hidden {
				if _, err := tx.Exec(ctx, `INSERT INTO insight_term_readers (site_id, term, reader, at) VALUES ($1, $2, $3, $4)
					ON CONFLICT (site_id, term, reader) DO UPDATE SET at = greatest(insight_term_readers.at, excluded.at)`,
					e.Site, h.Hash, e.Reader, at); err != nil {
					return err
				}
				// Revealed in the same statement that counts the crowd: not
				// counted again once revealed, and counted only up to the
				// crowd (a popular term has thousands of readers).
				if _, err := tx.Exec(ctx, `INSERT INTO insight_terms (site_id, term, stem) SELECT $1, $2, $3
					WHERE NOT EXISTS (SELECT 1 FROM insight_terms WHERE site_id = $1 AND term = $2)
					AND (SELECT count(*) FROM (SELECT 1 FROM insight_term_readers WHERE site_id = $1 AND term = $2 AND at >= $4 LIMIT $5) c) >= $5
					ON CONFLICT DO NOTHING`, e.Site, h.Hash, h.Stem, in.Since.UnixMilli(), in.MinCrowd); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return p.unavailable(ctx, op, err)
	}
	return nil
}

// InsightEvents implements Insights.
func (p *Postgres) InsightEvents(ctx context.Context, site string, since time.Time) ([]InsightEvent, error) {
	const op = "insight events"
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := p.pool.Query(ctx, `SELECT at, outcome, lang, qkey, reader, pages FROM insight_events
		WHERE site_id = $1 AND at >= $2 ORDER BY at DESC LIMIT $3`, site, since.UnixMilli(), MaxInsightEvents)
	if err != nil {
		return nil, p.unavailable(ctx, op, err)
	}
	defer rows.Close()
	var out []InsightEvent
	for rows.Next() {
		var e InsightEvent
		var at int64
		var pages string
		if err := rows.Scan(&at, &e.Outcome, &e.Lang, &e.Key, &e.Reader, &pages); err != nil {
			return nil, p.unavailable(ctx, op, err)
		}
		e.Site, e.At, e.Pages = site, time.UnixMilli(at).UTC(), splitPages(pages)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, p.unavailable(ctx, op, err)
	}
	return out, nil
}

// InsightTerms implements Insights.
func (p *Postgres) InsightTerms(ctx context.Context, site string) (map[string]string, error) {
	const op = "insight terms"
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := p.pool.Query(ctx, `SELECT term, stem FROM insight_terms WHERE site_id = $1`, site)
	if err != nil {
		return nil, p.unavailable(ctx, op, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var h, st string
		if err := rows.Scan(&h, &st); err != nil {
			return nil, p.unavailable(ctx, op, err)
		}
		out[h] = st
	}
	if err := rows.Err(); err != nil {
		return nil, p.unavailable(ctx, op, err)
	}
	return out, nil
}

// PruneInsights implements Insights.
func (p *Postgres) PruneInsights(ctx context.Context, site string, before time.Time) error {
	return p.pruneInsights(ctx, site, before, MaxInsightEvents)
}

func (p *Postgres) pruneInsights(ctx context.Context, site string, before time.Time, maxEvents int) error {
	const op = "prune insights"
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	b := before.UnixMilli()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM insight_events WHERE site_id = $1 AND at < $2`, []any{site, b}},
		{`DELETE FROM insight_events WHERE site_id = $1 AND at < (SELECT at FROM insight_events WHERE site_id = $1 ORDER BY at DESC LIMIT 1 OFFSET $2)`,
			[]any{site, maxEvents - 1}},
		{`DELETE FROM insight_term_readers WHERE site_id = $1 AND at < $2`, []any{site, b}},
		{`DELETE FROM insight_term_readers WHERE site_id = $1 AND at < (SELECT at FROM insight_term_readers WHERE site_id = $1 ORDER BY at DESC LIMIT 1 OFFSET $2)`,
			[]any{site, maxEvents*insightReadersFactor - 1}},
		{`DELETE FROM insight_terms t WHERE site_id = $1 AND NOT EXISTS
			(SELECT 1 FROM insight_term_readers r WHERE r.site_id = t.site_id AND r.term = t.term)`, []any{site}},
	} {
		if _, err := p.pool.Exec(ctx, q.sql, q.args...); err != nil {
			return p.unavailable(ctx, op, err)
		}
	}
	return nil
}

var _ Insights = (*Postgres)(nil)
