package protocol

import "github.com/askplane/askplane/internal/ecmajson"

// decoder walks a parsed JSON value against a schema. The first failure sets
// failed; later calls keep returning zero values so a decode function reads
// as a straight list of fields and checks its result once at the end.
// Members the schema does not name are ignored, which is the v1
// forward-compatible policy of stripping unknown keys.
type decoder struct {
	failed bool
}

var nullValue = ecmajson.Value{Kind: ecmajson.Null}

// check records a failed rule.
func (d *decoder) check(ok bool) {
	if !ok {
		d.failed = true
	}
}

// object returns v when it is an object.
func (d *decoder) object(v *ecmajson.Value) *ecmajson.Value {
	if v == nil || v.Kind != ecmajson.Object {
		d.failed = true
		return &ecmajson.Value{Kind: ecmajson.Object}
	}
	return v
}

// field returns the required member key of o.
func (d *decoder) field(o *ecmajson.Value, key string) *ecmajson.Value {
	v, ok := o.Member(key)
	if !ok {
		d.failed = true
		return &nullValue
	}
	return v
}

// optional returns the member key of o, or nil when it is absent. A present
// null is not absent: zod's .optional() rejects it, and so do we.
func (d *decoder) optional(o *ecmajson.Value, key string) *ecmajson.Value {
	v, ok := o.Member(key)
	if !ok {
		return nil
	}
	return v
}

// str returns v's string.
func (d *decoder) str(v *ecmajson.Value) string {
	if v.Kind != ecmajson.String {
		d.failed = true
		return ""
	}
	return v.Str
}

// text returns v's string trimmed of ECMAScript whitespace, with its UTF-16
// length checked against [min, max] after trimming, as zod's .trim().min().max()
// rewrites the value before checking it.
func (d *decoder) text(v *ecmajson.Value, min, max int) string {
	s := Trim(d.str(v))
	d.length(s, min, max)
	return s
}

// raw returns v's string untrimmed, length-checked.
func (d *decoder) raw(v *ecmajson.Value, min, max int) string {
	s := d.str(v)
	d.length(s, min, max)
	return s
}

func (d *decoder) length(s string, min, max int) {
	// A string of n UTF-8 bytes has between ceil(n/3) and n UTF-16 units,
	// so most strings pass without being counted.
	n := len(s)
	if n <= max && (n+2)/3 >= min {
		return
	}
	if u := UTF16Len(s); u < min || u > max {
		d.failed = true
	}
}

func (d *decoder) identifier(v *ecmajson.Value) string {
	s := d.str(v)
	d.check(ValidIdentifier(s))
	return s
}

func (d *decoder) contentHash(v *ecmajson.Value) string {
	s := d.str(v)
	d.check(ValidContentHash(s))
	return s
}

func (d *decoder) href(v *ecmajson.Value) string {
	s := d.str(v)
	d.check(ValidHref(s))
	return s
}

func (d *decoder) literal(v *ecmajson.Value, want string) {
	d.check(v.Kind == ecmajson.String && v.Str == want)
}

// oneOf returns v's string when it is one of the allowed values.
func (d *decoder) oneOf(v *ecmajson.Value, allowed ...string) string {
	s := d.str(v)
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	d.failed = true
	return ""
}

// array returns v's elements when v is an array of min to max elements.
func (d *decoder) array(v *ecmajson.Value, min, max int) []ecmajson.Value {
	if v.Kind != ecmajson.Array || len(v.Items) < min || len(v.Items) > max {
		d.failed = true
		return nil
	}
	return v.Items
}

func (d *decoder) boolean(v *ecmajson.Value) bool {
	if v.Kind != ecmajson.Bool {
		d.failed = true
	}
	return v.IsTrue()
}

// header classifies a payload's protocol and version before the schema
// runs: a matching protocol with a numeric version other than 1 is
// UNSUPPORTED_VERSION, everything else that is off is INVALID_PAYLOAD.
func header(root *ecmajson.Value, protocol string) *Diagnostic {
	if root.Kind != ecmajson.Object {
		return invalid()
	}
	p, _ := root.Member("protocol")
	v, _ := root.Member("version")
	if p == nil || p.Kind != ecmajson.String || p.Str != protocol || v == nil || v.Kind != ecmajson.Number {
		return invalid()
	}
	if v.Num != Version {
		return unsupportedVersion()
	}
	return nil
}

// writeHeader opens a document of protocol and writes the members header
// checks, {"protocol":protocol,"version":1, which every document begins
// with.
func writeHeader(w *ecmajson.Writer, protocol string) {
	w.BeginObject()
	w.StringMember("protocol", protocol)
	w.Key("version")
	w.Int(Version)
}
