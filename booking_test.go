package practiced_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
)

func TestBookingDetailsCheckTrimsAndReportsEveryProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   practiced.BookingDetails
		want map[string]string
		out  practiced.BookingDetails // the details after a clean check
	}{
		{"clean, no region: phone in E.164 read in the default region", practiced.BookingDetails{" Dana ", "Diaz\t", " dana@example.org ", "(04) 1234-5678", ""}, nil,
			practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "+61412345678", ""}},
		{"no phone is fine", practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "  ", ""}, nil,
			practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "", ""}},
		{"nothing", practiced.BookingDetails{}, map[string]string{"first_name": "Enter your first name.",
			"last_name": "Enter your last name.", "email": "Enter your e-mail address."}, practiced.BookingDetails{}},
		{"bad e-mail and phone", practiced.BookingDetails{"Dana", "Diaz", "Dana <dana@example.org>", "call me", ""}, map[string]string{
			"email": "Enter an e-mail address such as name@example.com.",
			"phone": "Enter a phone number such as 0412 345 678, or with its country code, such as +61 412 345 678, or leave it empty."}, practiced.BookingDetails{}},
		{"e-mail without a dot in the domain", practiced.BookingDetails{"Dana", "Diaz", "dana@localhost", "", ""}, map[string]string{
			"email": "Enter an e-mail address such as name@example.com."}, practiced.BookingDetails{}},
		{"a region: phone in E.164", practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "(04) 1234-5678", "AU"}, nil,
			practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "+61412345678", "AU"}},
		{"a region: a number of another country", practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "+64 21 123 4567", "AU"}, nil,
			practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "+64211234567", "AU"}},
		{"a region: not a number", practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "12", "NZ"}, map[string]string{
			"phone": "Enter a phone number such as 021 123 4567, or with its country code, such as +64 21 123 4567, or leave it empty."}, practiced.BookingDetails{}},
		{"too long, and two lines", practiced.BookingDetails{strings.Repeat("x", 256), "Di\naz", "dana@example.org", "", ""}, map[string]string{
			"first_name": "Use at most 255 characters for your first name (this has 256).",
			"last_name":  "Use a single line for your last name."}, practiced.BookingDetails{}},
	} {
		d := tc.in
		got := d.Check()
		if !maps.Equal(got, tc.want) {
			t.Errorf("%s: problems %v, want %v", tc.name, got, tc.want)
		}
		if tc.want == nil && d != tc.out {
			t.Errorf("%s: details %+v, want %+v", tc.name, d, tc.out)
		}
	}
}

func TestBookingDetailsMakeAClientWhoConsentedOnline(t *testing.T) {
	now := practiced.NewTime(time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC))
	d := practiced.BookingDetails{"Dana", "Diaz", "dana@example.org", "0412345678", ""}
	c := d.NewClient("cli_1", now)
	if c.ID != "cli_1" || c.FirstName != "Dana" || c.LastName != "Diaz" || c.Email != "dana@example.org" ||
		c.PhoneNumber != "0412345678" || c.ConsentMethod == nil || *c.ConsentMethod != "online_booking" ||
		c.PrivacyPolicyConsent != nil || c.CreatedAt != now || c.UpdatedAt != now {
		t.Errorf("client %+v", c)
	}
	if n := d.Note(); n != "Booked online by Dana Diaz <dana@example.org>, phone 0412345678." {
		t.Errorf("note %q", n)
	}
	d.Phone = ""
	if n := d.Note(); n != "Booked online by Dana Diaz <dana@example.org>." {
		t.Errorf("note %q", n)
	}
}
