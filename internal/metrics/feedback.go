package metrics

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

// feedbackUnverifiedKey is the counter of verdicts naming a context_id
// this instance did not issue lately.
const feedbackUnverifiedKey = "askplane_feedback_unverified_total"

// FeedbackUnverified counts a verdict whose context_id this instance did
// not issue lately (made up, too old, or issued by another instance), as
// askplane_feedback_unverified_total{site,verdict}.
func (p *Prometheus) FeedbackUnverified(site, verdict string) {
	p.init()
	vector(p, p.counters, feedbackUnverifiedKey, func() *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: feedbackUnverifiedKey, Help: "Readers' verdicts naming a context_id this instance did not issue lately (made up, too old, or another instance's).",
		}, []string{"site", "verdict"})
	}).WithLabelValues(site, verdict).Inc()
}
