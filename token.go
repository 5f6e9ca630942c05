package practiced

import (
	"crypto/sha256"
	"encoding/hex"
)

// HashToken returns the stored form of an API key token: its SHA-256
// hash in hex. Tokens themselves are never stored or logged.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
