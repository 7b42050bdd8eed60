package ask

import "github.com/prometheus/client_golang/prometheus"

// feedbackKey is the feedback counter's key in Prometheus.counters: not a
// dotted Observe name, so it cannot collide with one.
const feedbackKey = "askplane_feedback_total"

// Feedback counts one reader's verdict on a backend answer of site, as
// askplane_feedback_total{site,verdict}. verdict is one of a fixed set the
// caller checked, so the series stay bounded.
func (p *Prometheus) Feedback(site, verdict string) {
	p.init()
	vector(p, p.counters, feedbackKey, func() *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: feedbackKey, Help: "Readers' verdicts on backend answers (helpful or not_helpful).",
		}, []string{"site", "verdict"})
	}).WithLabelValues(site, verdict).Inc()
}
