package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxJSONDepth bounds nesting in provider JSON.
const MaxJSONDepth = 64

var errDuplicateMember = errors.New("duplicate member")

// CheckJSON refuses a document that is not exactly one JSON value, nests
// deeper than MaxJSONDepth, or repeats a member name in an object.
// encoding/json silently keeps the last of two equal names; a response
// that says two things at once is refused instead of guessed at. It runs
// on unary bodies and terminal stream snapshots (the data a result is
// built from), not on every delta.
func CheckJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := checkValue(dec, 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	return nil
}

func checkValue(dec *json.Decoder, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if depth >= MaxJSONDepth {
		return errors.New("too deep")
	}
	switch d {
	case '{':
		seen := map[string]struct{}{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			name, _ := k.(string)
			if _, dup := seen[name]; dup {
				return errDuplicateMember
			}
			seen[name] = struct{}{}
			if err := checkValue(dec, depth+1); err != nil {
				return err
			}
		}
	case '[':
		for dec.More() {
			if err := checkValue(dec, depth+1); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}
