package practiced

import (
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// TestE164PhoneMatchesParser checks the stored-number reader against the
// general parser on an example number of every type of every region,
// including the numbering plans whose numbers keep leading zeros.
func TestE164PhoneMatchesParser(t *testing.T) {
	types := []phonenumbers.PhoneNumberType{phonenumbers.FIXED_LINE, phonenumbers.MOBILE, phonenumbers.TOLL_FREE,
		phonenumbers.PREMIUM_RATE, phonenumbers.VOIP, phonenumbers.PAGER, phonenumbers.UAN, phonenumbers.VOICEMAIL}
	checked, zeros := 0, 0
	check := func(e164 string) {
		t.Helper()
		want, ok := parsePhone(e164, DefaultPhoneRegion)
		if !ok {
			return // the example is not valid in the library's own plan
		}
		got, ok := e164Phone(e164)
		if !ok {
			t.Fatalf("%s: refused by e164Phone", e164)
		}
		for _, f := range []phonenumbers.PhoneNumberFormat{phonenumbers.E164, phonenumbers.NATIONAL, phonenumbers.INTERNATIONAL} {
			if g, w := phonenumbers.Format(got, f), phonenumbers.Format(want, f); g != w {
				t.Errorf("%s: format %v gives %q, parser's number %q", e164, f, g, w)
			}
		}
		if got.GetItalianLeadingZero() {
			zeros++
		}
		checked++
	}
	for region := range phonenumbers.GetSupportedRegions() {
		for _, typ := range types {
			if n := phonenumbers.GetExampleNumberForType(region, typ); n != nil {
				check(phonenumbers.Format(n, phonenumbers.E164))
			}
		}
	}
	for cc := range phonenumbers.GetSupportedGlobalNetworkCallingCodes() {
		if n := phonenumbers.GetExampleNumberForNonGeoEntity(cc); n != nil {
			check(phonenumbers.Format(n, phonenumbers.E164))
		}
	}
	if checked < 1000 || zeros == 0 {
		t.Fatalf("checked %d numbers, %d with leading zeros: the examples did not cover the plans", checked, zeros)
	}
	// Not written in E.164, or naming no country: the reader refuses them.
	for _, s := range []string{"", "+", "+6", "+61", "0491570925", "+61 491 570 925", "+610491570925x", "+0491570925",
		"+999123456789", "+6149157092512345678"} {
		if n, ok := e164Phone(s); ok {
			t.Errorf("e164Phone(%q) = %v, want refused", s, phonenumbers.Format(n, phonenumbers.E164))
		}
	}
}

func TestPhoneSearchText(t *testing.T) {
	for stored, want := range map[string]string{
		"+61491570925":  "+61491570925 0491570925",
		"+390236618300": "+390236618300 0236618300",
		"+12015550123":  "+12015550123 2015550123",
		"0491 570 925":  "+61491570925 0491570925",
		"not a number":  "not a number",
		"+61491570":     "+61491570 491570", // stored before numbers were checked
		"+999123456789": "+999123456789",
	} {
		if got := PhoneSearchText(stored); got != want {
			t.Errorf("PhoneSearchText(%q) = %q, want %q", stored, got, want)
		}
	}
}

func BenchmarkPhoneSearchText(b *testing.B) {
	for b.Loop() {
		PhoneSearchText("+61491570925")
	}
}
