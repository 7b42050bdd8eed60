package protocol

// decoder walks a parsed JSON value against a schema. The first failure sets
// failed; later calls keep returning zero values so a decode function reads
// as a straight list of fields and checks its result once at the end.
// Members the schema does not name are ignored, which is the v1
// forward-compatible policy of stripping unknown keys.
type decoder struct {
	failed bool
}

var nullValue = jsonValue{kind: jsonNull}

func (d *decoder) fail() { d.failed = true }

// check records a failed rule.
func (d *decoder) check(ok bool) {
	if !ok {
		d.failed = true
	}
}

// object returns v when it is an object.
func (d *decoder) object(v *jsonValue) *jsonValue {
	if v == nil || v.kind != jsonObject {
		d.failed = true
		return &jsonValue{kind: jsonObject}
	}
	return v
}

// field returns the required member key of o.
func (d *decoder) field(o *jsonValue, key string) *jsonValue {
	v, ok := o.member(key)
	if !ok {
		d.failed = true
		return &nullValue
	}
	return v
}

// optional returns the member key of o, or nil when it is absent. A present
// null is not absent: zod's .optional() rejects it, and so do we.
func (d *decoder) optional(o *jsonValue, key string) *jsonValue {
	v, ok := o.member(key)
	if !ok {
		return nil
	}
	return v
}

// str returns v's string.
func (d *decoder) str(v *jsonValue) string {
	if v.kind != jsonString {
		d.failed = true
		return ""
	}
	return v.str
}

// text returns v's string trimmed of ECMAScript whitespace, with its UTF-16
// length checked against [min, max] after trimming, as zod's .trim().min().max()
// rewrites the value before checking it.
func (d *decoder) text(v *jsonValue, min, max int) string {
	s := Trim(d.str(v))
	d.length(s, min, max)
	return s
}

// raw returns v's string untrimmed, length-checked.
func (d *decoder) raw(v *jsonValue, min, max int) string {
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

func (d *decoder) identifier(v *jsonValue) string {
	s := d.str(v)
	d.check(ValidIdentifier(s))
	return s
}

func (d *decoder) contentHash(v *jsonValue) string {
	s := d.str(v)
	d.check(ValidContentHash(s))
	return s
}

func (d *decoder) href(v *jsonValue) string {
	s := d.str(v)
	d.check(ValidHref(s))
	return s
}

func (d *decoder) literal(v *jsonValue, want string) {
	d.check(v.kind == jsonString && v.str == want)
}

// oneOf returns v's string when it is one of the allowed values.
func (d *decoder) oneOf(v *jsonValue, allowed ...string) string {
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
func (d *decoder) array(v *jsonValue, min, max int) []jsonValue {
	if v.kind != jsonArray || len(v.items) < min || len(v.items) > max {
		d.failed = true
		return nil
	}
	return v.items
}

func (d *decoder) boolean(v *jsonValue) bool {
	if v.kind != jsonBool {
		d.failed = true
	}
	return v.isTrue()
}

// header classifies a payload's protocol and version before the schema
// runs: a matching protocol with a numeric version other than 1 is
// UNSUPPORTED_VERSION, everything else that is off is INVALID_PAYLOAD.
func header(root *jsonValue, protocol string) *Diagnostic {
	if root.kind != jsonObject {
		return invalid()
	}
	p, _ := root.member("protocol")
	v, _ := root.member("version")
	if p == nil || p.kind != jsonString || p.str != protocol || v == nil || v.kind != jsonNumber {
		return invalid()
	}
	if v.num != Version {
		return unsupportedVersion()
	}
	return nil
}
