package provider

import "time"

// Limits bounds every size a call can reach. Zero fields take the
// defaults; Validate refuses values above the hard maxima and nestings
// that make no sense (an event smaller than a line, a stream smaller than
// an event).
type Limits struct {
	MaxRequestBytes  int64         `json:"maxRequestBytes,omitempty"`
	MaxResponseBytes int64         `json:"maxResponseBytes,omitempty"`
	MaxSSELineBytes  int64         `json:"maxSSELineBytes,omitempty"`
	MaxSSEEventBytes int64         `json:"maxSSEEventBytes,omitempty"`
	MaxStreamBytes   int64         `json:"maxStreamBytes,omitempty"`
	MaxStreamEvents  int64         `json:"maxStreamEvents,omitempty"`
	ConnectTimeout   time.Duration `json:"connectTimeout,omitempty"`
}

// DefaultLimits are the bounds a zero Limits gets.
var DefaultLimits = Limits{
	MaxRequestBytes:  16 << 20,
	MaxResponseBytes: 2 << 20,
	MaxSSELineBytes:  512 << 10,
	MaxSSEEventBytes: 2 << 20,
	MaxStreamBytes:   64 << 20,
	MaxStreamEvents:  1 << 20,
	ConnectTimeout:   10 * time.Second,
}

// HardLimits are the largest values an operator may configure.
var HardLimits = Limits{
	MaxRequestBytes:  32 << 20,
	MaxResponseBytes: 128 << 20,
	MaxSSELineBytes:  128 << 20,
	MaxSSEEventBytes: 128 << 20,
	MaxStreamBytes:   256 << 20,
	MaxStreamEvents:  1 << 22,
	ConnectTimeout:   time.Minute,
}

// WithDefaults fills zero fields from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.MaxRequestBytes == 0 {
		l.MaxRequestBytes = d.MaxRequestBytes
	}
	if l.MaxResponseBytes == 0 {
		l.MaxResponseBytes = d.MaxResponseBytes
	}
	if l.MaxSSELineBytes == 0 {
		l.MaxSSELineBytes = d.MaxSSELineBytes
	}
	if l.MaxSSEEventBytes == 0 {
		l.MaxSSEEventBytes = max(d.MaxSSEEventBytes, l.MaxSSELineBytes)
	}
	if l.MaxStreamBytes == 0 {
		l.MaxStreamBytes = max(d.MaxStreamBytes, l.MaxSSEEventBytes)
	}
	if l.MaxStreamEvents == 0 {
		l.MaxStreamEvents = d.MaxStreamEvents
	}
	if l.ConnectTimeout == 0 {
		l.ConnectTimeout = d.ConnectTimeout
	}
	return l
}

// Validate checks signs, hard maxima and nesting after defaults apply.
func (l Limits) Validate() error {
	w := l.WithDefaults()
	h := HardLimits
	bad := func(msg string) error { return NewError(CodeConfigInvalid, "limits: "+msg) }
	switch {
	case l.MaxRequestBytes < 0, l.MaxResponseBytes < 0, l.MaxSSELineBytes < 0, l.MaxSSEEventBytes < 0,
		l.MaxStreamBytes < 0, l.MaxStreamEvents < 0, l.ConnectTimeout < 0:
		return bad("values must not be negative")
	case w.MaxRequestBytes > h.MaxRequestBytes, w.MaxResponseBytes > h.MaxResponseBytes,
		w.MaxSSELineBytes > h.MaxSSELineBytes, w.MaxSSEEventBytes > h.MaxSSEEventBytes,
		w.MaxStreamBytes > h.MaxStreamBytes, w.MaxStreamEvents > h.MaxStreamEvents,
		w.ConnectTimeout > h.ConnectTimeout:
		return bad("a value is above its hard maximum")
	case w.MaxSSEEventBytes < w.MaxSSELineBytes:
		return bad("maxSSEEventBytes must be at least maxSSELineBytes")
	case w.MaxStreamBytes < w.MaxSSEEventBytes:
		return bad("maxStreamBytes must be at least maxSSEEventBytes")
	}
	return nil
}
