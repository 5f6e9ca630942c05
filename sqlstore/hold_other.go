//go:build !linux

package sqlstore

import "net"

// holdWrites holds nothing where TCP_CORK is not available: a write goes
// as it is made.
func holdWrites(conn net.Conn) (release func()) { return func() {} }
