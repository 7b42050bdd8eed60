package resolve

import (
	"math"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
)

// Bounds that props of a component frame must respect (the AgentsKit
// isBoundedJsonValue check): they keep a model-authored frame from costing
// a renderer unbounded work.
const (
	maxPropsNodes     = 1000
	maxPropsDepth     = 20
	maxPropsStringLen = 16_384
	maxPropsItems     = 1000
	maxPropsKeyLen    = 256
)

// boundedProps reports whether v is small enough to be frame props.
func boundedProps(v *ecmajson.Value) bool {
	nodes := 0
	var visit func(v *ecmajson.Value, depth int) bool
	visit = func(v *ecmajson.Value, depth int) bool {
		nodes++
		if nodes > maxPropsNodes || depth > maxPropsDepth {
			return false
		}
		switch v.Kind {
		case ecmajson.String:
			return protocol.UTF16Len(v.Str) <= maxPropsStringLen
		case ecmajson.Number:
			return !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num)
		case ecmajson.Array:
			if len(v.Items) > maxPropsItems {
				return false
			}
			for i := range v.Items {
				if !visit(&v.Items[i], depth+1) {
					return false
				}
			}
		case ecmajson.Object:
			if len(v.Items)/2 > maxPropsItems {
				return false
			}
			for k, m := range v.Members() {
				if protocol.UTF16Len(k) > maxPropsKeyLen || !visit(m, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return visit(v, 0)
}
