package hugomodule_test

import (
	"crypto/sha256"
	"encoding/hex"
)

func protocolSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
