//go:build race

package evidence

// raceEnabled lets the differential tests ask fewer questions under the
// race detector, which slows them tenfold and finds nothing more in
// single-goroutine code; plain runs ask them all.
const raceEnabled = true
