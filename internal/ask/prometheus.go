package ask

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Prometheus is a Metrics observer that aggregates observations and serves
// them in the Prometheus text format (mount it on GET /metrics). Like the
// observations, the series carry only the metric name, site id and
// outcome: no request id, question, answer, subject or session.
//
// Durations (unit ms) become histograms named askplane_ask_<name>
// (dots as underscores, e.g. askplane_ask_stream_first_event_ms_bucket);
// every other unit becomes a counter of the observed values,
// askplane_ask_<name>_total (e.g. askplane_ask_error_count_total,
// askplane_ask_stream_bytes_total). Safe for concurrent use; the zero
// value is ready.
type Prometheus struct {
	mu     sync.Mutex
	series map[promKey]*promSeries
}

// PrometheusBuckets are the histogram upper bounds, in milliseconds.
var PrometheusBuckets = []float64{1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 120000}

type promKey struct{ name, site, outcome string }

type promSeries struct {
	histogram bool
	sum       float64
	count     uint64
	buckets   []uint64 // cumulative counts are computed when written
}

// Observe implements Metrics.
func (p *Prometheus) Observe(m Metric) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.series == nil {
		p.series = make(map[promKey]*promSeries)
	}
	k := promKey{m.Name, m.SiteID, m.Outcome}
	s := p.series[k]
	if s == nil {
		s = &promSeries{histogram: m.Unit == UnitMs}
		if s.histogram {
			s.buckets = make([]uint64, len(PrometheusBuckets))
		}
		p.series[k] = s
	}
	v := clampValue(m.Value)
	s.sum += v
	s.count++
	if s.histogram {
		if i, _ := slices.BinarySearch(PrometheusBuckets, v); i < len(s.buckets) {
			s.buckets[i]++
		}
	}
}

// ServeHTTP writes every series, sorted, in the text exposition format.
func (p *Prometheus) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(p.Text())
}

// Text returns the exposition text.
func (p *Prometheus) Text() []byte {
	p.mu.Lock()
	keys := make([]promKey, 0, len(p.series))
	for k := range p.series {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b promKey) int {
		return strings.Compare(a.name+"\x00"+a.site+"\x00"+a.outcome, b.name+"\x00"+b.site+"\x00"+b.outcome)
	})
	var b strings.Builder
	last := ""
	for _, k := range keys {
		s := p.series[k]
		name := "askplane_ask_" + strings.ReplaceAll(k.name, ".", "_")
		labels := fmt.Sprintf(`site=%q,outcome=%q`, k.site, k.outcome)
		if !s.histogram {
			name += "_total"
		}
		if name != last {
			kind := "counter"
			if s.histogram {
				kind = "histogram"
			}
			fmt.Fprintf(&b, "# TYPE %s %s\n", name, kind)
			last = name
		}
		if !s.histogram {
			fmt.Fprintf(&b, "%s{%s} %s\n", name, labels, promFloat(s.sum))
			continue
		}
		var cum uint64
		for i, ub := range PrometheusBuckets {
			cum += s.buckets[i]
			fmt.Fprintf(&b, "%s_bucket{%s,le=\"%s\"} %d\n", name, labels, promFloat(ub), cum)
		}
		fmt.Fprintf(&b, "%s_bucket{%s,le=\"+Inf\"} %d\n", name, labels, s.count)
		fmt.Fprintf(&b, "%s_sum{%s} %s\n", name, labels, promFloat(s.sum))
		fmt.Fprintf(&b, "%s_count{%s} %d\n", name, labels, s.count)
	}
	p.mu.Unlock()
	return []byte(b.String())
}

func promFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

var _ Metrics = (*Prometheus)(nil)
