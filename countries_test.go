package practiced

import "testing"

func TestCountryCodesAreTheAssignedISO3166Set(t *testing.T) {
	if len(countryCodes) != 249 {
		t.Fatalf("%d country codes, want the 249 assigned by ISO 3166-1", len(countryCodes))
	}
	for _, c := range []string{"AU", "NZ", "GB", "US", "SS", "BQ"} {
		if !IsCountry(c) {
			t.Errorf("%s is missing", c)
		}
	}
	for _, c := range []string{"UK", "EU", "XK", "AN", "YU", "ZR", "AC", "TA"} {
		if IsCountry(c) {
			t.Errorf("%s is not an assigned code", c)
		}
	}
}
