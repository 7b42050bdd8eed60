// Package layout holds the test that keeps ARCHITECTURE.md's layout table
// true to the tree: every package folder listed, every listed path
// present, and the import rules the table states (nothing the server
// builds imports tools/).
package layout
