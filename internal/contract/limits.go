package contract

// JSONLimits bound one JSON document (a serialised input or a model's
// output) before anything parses it into a tree, so a hostile or runaway
// model cannot make the validator or the decoder allocate without bound.
// A zero field takes its default; a field over its hard maximum is a
// definition error.
type JSONLimits struct {
	MaxBytes       int // whole document, in bytes
	MaxDepth       int // nesting of arrays and objects; the root object is depth 1
	MaxStringBytes int // any one string, member names included, in bytes (after unescaping)
	MaxItems       int // elements of any one array and members of any one object
}

// JSON limit defaults and hard maxima.
const (
	DefaultMaxInputBytes  = 1 << 20
	DefaultMaxOutputBytes = 64 << 10
	DefaultMaxDepth       = 16
	DefaultMaxStringBytes = 64 << 10
	DefaultMaxItems       = 256

	HardMaxJSONBytes   = 8 << 20
	HardMaxDepth       = 64
	HardMaxStringBytes = 1 << 20
	HardMaxItems       = 16 << 10
)

// Limits are an agent's resource bounds for input and output JSON.
type Limits struct {
	Input  JSONLimits
	Output JSONLimits
}

// normalize fills defaults and reports the first field out of range.
func (l JSONLimits) normalize(defaultBytes int) (JSONLimits, *Error) {
	fill := func(v *int, def, hard int, name string) *Error {
		switch {
		case *v == 0:
			*v = def
		case *v < 0 || *v > hard:
			e := newError(CodeDefinitionInvalid, name+" is out of range")
			e.Limit = hard
			return e
		}
		return nil
	}
	for _, f := range []struct {
		v         *int
		def, hard int
		name      string
	}{
		{&l.MaxBytes, defaultBytes, HardMaxJSONBytes, "MaxBytes"},
		{&l.MaxDepth, DefaultMaxDepth, HardMaxDepth, "MaxDepth"},
		{&l.MaxStringBytes, DefaultMaxStringBytes, HardMaxStringBytes, "MaxStringBytes"},
		{&l.MaxItems, DefaultMaxItems, HardMaxItems, "MaxItems"},
	} {
		if err := fill(f.v, f.def, f.hard, f.name); err != nil {
			return l, err
		}
	}
	return l, nil
}

func (l Limits) normalize() (Limits, *Error) {
	var err *Error
	if l.Input, err = l.Input.normalize(DefaultMaxInputBytes); err != nil {
		err.Message = "input limit " + err.Message
		return l, err
	}
	if l.Output, err = l.Output.normalize(DefaultMaxOutputBytes); err != nil {
		err.Message = "output limit " + err.Message
		return l, err
	}
	return l, nil
}
