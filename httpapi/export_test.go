package httpapi

import practiced "github.com/practiced/practiced"

// RouteAccess lists the API's routes by pattern, each with what it asks
// of its caller: "" (nothing), "auth" (an API key) or "write" (a
// read-write key).
func RouteAccess(store practiced.Store) map[string]string {
	s := &Server{store: store}
	names := map[access]string{public: "", keyed: "auth", writes: "write"}
	out := map[string]string{}
	for _, rt := range s.routes() {
		out[rt.pattern] = names[rt.access]
	}
	return out
}
