// Package session is the floor both sides of a conversation's storage
// stand on: the Key that names a session, the Record stored under it, the
// Store interface with its compare-and-swap Save, and an in-process
// MemoryStore. The Ask handler (internal/ask) reads and writes sessions
// through Store; the durable stores (internal/store) implement it. Neither
// imports the other.
package session
