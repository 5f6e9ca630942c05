package sqlstore

import (
	"testing"

	practiced "github.com/practiced/practiced"
)

// A client's search text holds each number in E.164, in national digits
// and as typed in the list, the primary number included once for itself
// and once for each entry of the list it is.
func TestClientSearch(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    practiced.Client
		want string
	}{
		{"primary in the list", practiced.Client{FirstName: "Ada", LastName: "Lovelace", Email: "Ada@Example.com", PhoneNumber: "+61491576174",
			PhoneNumbers: []practiced.PhoneNumber{{Code: "+61", Number: "491576174"}, {Code: "+61", Number: "298765432"}}},
			"ada lovelace  ada@example.com +61491576174 0491576174 +61491576174 0491576174 491576174 +61298765432 0298765432 298765432"},
		{"primary not in the list", practiced.Client{FirstName: "Ada", LastName: "Lovelace", PhoneNumber: "+61298765432",
			PhoneNumbers: []practiced.PhoneNumber{{Code: "+61", Number: "491576174"}}},
			"ada lovelace   +61298765432 0298765432 +61491576174 0491576174 491576174"},
		{"no primary", practiced.Client{FirstName: "Ada", LastName: "Lovelace",
			PhoneNumbers: []practiced.PhoneNumber{{Code: "+61", Number: "491576174"}}},
			"ada lovelace    +61491576174 0491576174 491576174"},
	} {
		if got := clientSearch(&tc.c); got != tc.want {
			t.Errorf("%s: search text\n%q, want\n%q", tc.name, got, tc.want)
		}
	}
}
