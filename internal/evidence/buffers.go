package evidence

import "sync"

// bufPool recycles the buffers fit and seal write a package into, so a
// search allocates none for JSON it only measures or hashes.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// maxPooledBuf keeps a rare huge package (a question of megabytes) from
// pinning its buffer in the pool.
const maxPooledBuf = 2 * MaxMaxBytes

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if cap(*b) <= maxPooledBuf {
		bufPool.Put(b)
	}
}
