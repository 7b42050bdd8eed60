package ecmajson

import "strconv"

// Writer builds JSON in the order its methods are called, inserting the
// commas itself, so a caller writes an object's members in a fixed schema
// order. That order is the point: JSON.stringify writes members in
// insertion order, and a content hash over the bytes only matches when Go
// writes the same members in the same order with the same escaping.
// encoding/json orders by struct field or sorted map key instead.
//
// The zero value writes into a new buffer; NewWriter appends to one. The
// caller is responsible for well-formedness: every Begin has its End, and
// inside an object every value follows a Key.
type Writer struct {
	b     []byte
	comma bool // a value was written, so the next one needs a comma
}

// NewWriter returns a Writer that appends to dst.
func NewWriter(dst []byte) Writer { return Writer{b: dst} }

// Bytes returns the output: dst of NewWriter with what was written since.
func (w *Writer) Bytes() []byte { return w.b }

func (w *Writer) sep() {
	if w.comma {
		w.b = append(w.b, ',')
	}
	w.comma = true
}

func (w *Writer) begin(c byte) { w.sep(); w.b = append(w.b, c); w.comma = false }

func (w *Writer) end(c byte) { w.b = append(w.b, c); w.comma = true }

// BeginObject writes '{'.
func (w *Writer) BeginObject() { w.begin('{') }

// EndObject writes '}'.
func (w *Writer) EndObject() { w.end('}') }

// BeginArray writes '['.
func (w *Writer) BeginArray() { w.begin('[') }

// EndArray writes ']'.
func (w *Writer) EndArray() { w.end(']') }

// Key writes a member name, escaped as AppendString escapes it, and its
// colon; the next call writes the member's value.
func (w *Writer) Key(k string) {
	w.sep()
	w.b = AppendString(w.b, k)
	w.b = append(w.b, ':')
	w.comma = false
}

// Str writes s as a JSON string (see AppendString).
func (w *Writer) Str(s string) { w.sep(); w.b = AppendString(w.b, s) }

// Int writes n.
func (w *Writer) Int(n int64) { w.sep(); w.b = strconv.AppendInt(w.b, n, 10) }

// Number writes f as JSON.stringify writes a Number (see AppendNumber).
func (w *Writer) Number(f float64) { w.sep(); w.b = AppendNumber(w.b, f) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.sep(); w.b = strconv.AppendBool(w.b, v) }

// Null writes null.
func (w *Writer) Null() { w.sep(); w.b = append(w.b, "null"...) }

// Strings writes list as an array of strings.
func (w *Writer) Strings(list []string) {
	w.BeginArray()
	for _, s := range list {
		w.Str(s)
	}
	w.EndArray()
}

// StringMember writes a member whose value is a string: Key(k), then Str(v).
func (w *Writer) StringMember(k, v string) { w.Key(k); w.Str(v) }

// Raw splices b, which must be one complete JSON value, into the output.
func (w *Writer) Raw(b []byte) { w.sep(); w.b = append(w.b, b...) }
