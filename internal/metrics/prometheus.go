package metrics

import (
	"net/http"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Prometheus is a Sink that aggregates observations with the
// Prometheus client library and serves them on GET /metrics. Like the
// observations, the series carry only the metric name, site id and
// outcome: no request id, question, answer, subject or session.
//
// Durations (unit ms) become histograms named askplane_ask_<name>
// (dots as underscores, e.g. askplane_ask_stream_first_event_ms_bucket);
// every other unit becomes a counter of the observed values,
// askplane_ask_<name>_total (e.g. askplane_ask_error_count_total,
// askplane_ask_stream_bytes_total). The Go runtime and process collectors
// are served beside them. Safe for concurrent use; the zero value is ready.
type Prometheus struct {
	once sync.Once
	reg  *prometheus.Registry
	http http.Handler

	mu         sync.RWMutex
	histograms map[string]*prometheus.HistogramVec
	counters   map[string]*prometheus.CounterVec
}

// PrometheusBuckets are the histogram upper bounds, in milliseconds.
var PrometheusBuckets = []float64{1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 120000}

// promLabels are the only labels a series has.
var promLabels = []string{"site", "outcome"}

func (p *Prometheus) init() {
	p.once.Do(func() {
		p.reg = prometheus.NewRegistry()
		p.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		p.http = promhttp.HandlerFor(p.reg, promhttp.HandlerOpts{})
		p.histograms = make(map[string]*prometheus.HistogramVec)
		p.counters = make(map[string]*prometheus.CounterVec)
	})
}

// Observe implements Sink.
func (p *Prometheus) Observe(m Metric) {
	p.init()
	v := Clamp(m.Value)
	if m.Unit == UnitMs {
		p.histogram(m.Name).WithLabelValues(m.SiteID, m.Outcome).Observe(v)
		return
	}
	p.counter(m.Name).WithLabelValues(m.SiteID, m.Outcome).Add(v)
}

func promName(metric string) string {
	return "askplane_ask_" + strings.ReplaceAll(metric, ".", "_")
}

// histogram and counter return the vector of one metric name, registering
// it on first use. Names come from the emitters' fixed sets, so the
// registry stays bounded.
func (p *Prometheus) histogram(name string) *prometheus.HistogramVec {
	return vector(p, p.histograms, name, func() *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: promName(name), Help: "Ask backend observation " + name + ", in milliseconds.", Buckets: PrometheusBuckets,
		}, promLabels)
	})
}

func (p *Prometheus) counter(name string) *prometheus.CounterVec {
	return vector(p, p.counters, name, func() *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: promName(name) + "_total", Help: "Sum of Ask backend observations " + name + ".",
		}, promLabels)
	})
}

// vector looks name up in vecs (one of p's maps, guarded by p.mu), and
// makes and registers it with newVec when it is not there yet.
func vector[V prometheus.Collector](p *Prometheus, vecs map[string]V, name string, newVec func() V) V {
	p.mu.RLock()
	v, ok := vecs[name]
	p.mu.RUnlock()
	if ok {
		return v
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok = vecs[name]; !ok {
		v = newVec()
		p.reg.MustRegister(v)
		vecs[name] = v
	}
	return v
}

// ServeHTTP serves the registry in the Prometheus exposition format.
func (p *Prometheus) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.init()
	w.Header().Set("Cache-Control", "no-store")
	p.http.ServeHTTP(w, r)
}

var _ Sink = (*Prometheus)(nil)
