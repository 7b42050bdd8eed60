// Package hugomodule holds the Go side of askplane's Hugo module: the
// integration tests that build real sites with the pinned Hugo and check
// what the module's templates emit against the Go protocol code, and (in
// subpackages) the check of a built site and the test-site builder.
package hugomodule
