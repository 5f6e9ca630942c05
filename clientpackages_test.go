package practiced_test

import (
	"reflect"
	"testing"

	practiced "github.com/practiced/practiced"
)

func TestClientPackageUsesNoMoreSessionsThanItHolds(t *testing.T) {
	for _, tc := range []struct {
		total, used int
		want        map[string][]string
	}{
		{5, 0, map[string][]string{}},
		{5, 5, map[string][]string{}},
		{5, 6, map[string][]string{"sessions_used": {"must not be more than sessions_total (5)"}}},
	} {
		p := practiced.ClientPackage{SessionsTotal: tc.total, SessionsUsed: tc.used}
		if got := failures(p.Check); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d of %d sessions used: failures %v, want %v", tc.used, tc.total, got, tc.want)
		}
	}
}
