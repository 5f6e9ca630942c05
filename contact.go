package practiced

import (
	"net/mail"
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Address is a postal address. Line2 is null when empty; the other parts
// are empty strings when unknown.
type Address struct {
	Line1       string  `json:"line1"`
	Line2       *string `json:"line2"`
	City        string  `json:"city"`
	State       string  `json:"state"`
	PostalCode  string  `json:"postal_code"`
	CountryCode string  `json:"country_code"`
	// Geocoding details a client's address may carry.
	Latitude         *float64 `json:"latitude"`
	Longitude        *float64 `json:"longitude"`
	FormattedAddress string   `json:"formatted_address_geocoder_estimate"`
	PlaceID          string   `json:"place_id"`
}

// appendJSON appends the address as encoding/json writes it, and
// reports false for a coordinate that is not a finite number.
func (a Address) appendJSON(buf []byte) ([]byte, bool) {
	buf = append(buf, `{"line1":`...)
	buf = AppendJSONString(buf, a.Line1)
	buf = append(buf, `,"line2":`...)
	buf = appendJSONStringPtr(buf, a.Line2)
	buf = append(buf, `,"city":`...)
	buf = AppendJSONString(buf, a.City)
	buf = append(buf, `,"state":`...)
	buf = AppendJSONString(buf, a.State)
	buf = append(buf, `,"postal_code":`...)
	buf = AppendJSONString(buf, a.PostalCode)
	buf = append(buf, `,"country_code":`...)
	buf = AppendJSONString(buf, a.CountryCode)
	buf = append(buf, `,"latitude":`...)
	buf, ok := appendJSONFloatPtr(buf, a.Latitude)
	if !ok {
		return buf, false
	}
	buf = append(buf, `,"longitude":`...)
	if buf, ok = appendJSONFloatPtr(buf, a.Longitude); !ok {
		return buf, false
	}
	buf = append(buf, `,"formatted_address_geocoder_estimate":`...)
	buf = AppendJSONString(buf, a.FormattedAddress)
	buf = append(buf, `,"place_id":`...)
	buf = AppendJSONString(buf, a.PlaceID)
	return append(buf, '}'), true
}

// PhoneNumber is one of a client's or contact's numbers, kept in one
// shape (NormalizePhoneNumber): Code is the country's dial code with its
// +, such as "+61", and Number the national significant number, without
// the trunk prefix or punctuation, such as "491570925", so that Code and
// Number side by side are the number in E.164.
type PhoneNumber struct {
	ID     string `json:"id"`
	Code   string `json:"code"`
	Number string `json:"number"`
	Type   string `json:"type"`
}

// appendJSON appends the number as encoding/json writes it.
func (p PhoneNumber) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"id":`...)
	buf = AppendJSONString(buf, p.ID)
	buf = append(buf, `,"code":`...)
	buf = AppendJSONString(buf, p.Code)
	buf = append(buf, `,"number":`...)
	buf = AppendJSONString(buf, p.Number)
	buf = append(buf, `,"type":`...)
	buf = AppendJSONString(buf, p.Type)
	return append(buf, '}')
}

// Phone number types.
var PhoneTypes = []string{"mobile", "home", "work", "fax", "other"}

// ValidEmail reports whether s is an e-mail address alone, as every
// e-mail field of the API requires: no display name, a dot in the domain.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == "" && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}

// Phone numbers are stored and answered in E.164, the international
// format: a + and the country's dial code, then the national significant
// number, digits only ("+61491570925"). People type numbers in their
// national form ("0491 570 925"), so a number without a leading + is read
// as a number of a region: the country the writer knows for the record
// (the address country_code of a client or contact, the location's
// country on the booking page), else DefaultPhoneRegion. Parsing follows
// libphonenumber's metadata of every country's numbering plan.

// DefaultPhoneRegion is the country whose national numbers a number
// without a leading + is read in when the record has no country.
const DefaultPhoneRegion = "AU"

// PhoneRegion returns the first of countries that is an ISO 3166-1
// alpha-2 code (in any case), else DefaultPhoneRegion.
func PhoneRegion(countries ...string) string {
	for _, c := range countries {
		if c = strings.ToUpper(strings.TrimSpace(c)); IsCountry(c) {
			return c
		}
	}
	return DefaultPhoneRegion
}

// NormalizePhone returns the number s in E.164, reading a number without
// a leading + as a national number of region. Only digits, an optional
// leading +, and the spaces, hyphens, dots and brackets people type
// between digits are accepted; ok is false when s is not a valid number
// of its country's numbering plan (so a landline without its area code
// is refused rather than stored as another number).
func NormalizePhone(s, region string) (e164 string, ok bool) {
	n, ok := parsePhone(s, region)
	if !ok {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

// NormalizePhoneNumber returns a PhoneNumber's code and number in their
// stored shape ("+61", "491570925"). A number written with a leading +
// carries its country; otherwise it is read as a national number of the
// country of code ("61" or "+61") when code is given, else of region. ok
// is false when number is not a valid number, or when code is not a
// dial code or disagrees with the number's own.
func NormalizePhoneNumber(code, number, region string) (string, string, bool) {
	code = strings.TrimPrefix(strings.TrimSpace(code), "+")
	if code != "" {
		cc, err := strconv.Atoi(code)
		if err != nil || phonenumbers.GetRegionCodeForCountryCode(cc) == phonenumbers.UNKNOWN_REGION {
			return "", "", false
		}
		region = phonenumbers.GetRegionCodeForCountryCode(cc)
	}
	n, ok := parsePhone(number, region)
	if !ok || code != "" && strconv.Itoa(int(n.GetCountryCode())) != code {
		return "", "", false
	}
	return "+" + strconv.Itoa(int(n.GetCountryCode())), phonenumbers.GetNationalSignificantNumber(n), true
}

// PhoneExamples returns a number of region as people write it
// internationally and nationally, for messages that say what a phone
// field accepts.
func PhoneExamples(region string) (international, national string) {
	n := phonenumbers.GetExampleNumberForType(region, phonenumbers.MOBILE)
	if n == nil {
		n = phonenumbers.GetExampleNumber(DefaultPhoneRegion)
	}
	return phonenumbers.Format(n, phonenumbers.INTERNATIONAL), phonenumbers.Format(n, phonenumbers.NATIONAL)
}

// PhoneForPeople returns the stored number e164 as people write it:
// nationally, with the usual spacing, when it is a number of region
// ("0412 345 678"), else internationally ("+64 21 123 4567"). A stored
// value that is not a number is returned as it is.
func PhoneForPeople(e164, region string) string {
	n, ok := parsePhone(e164, region)
	if !ok {
		return e164
	}
	if phonenumbers.GetRegionCodeForNumber(n) == region {
		return phonenumbers.Format(n, phonenumbers.NATIONAL)
	}
	return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
}

// PhoneProblem says, in words for a person filling in a page, what a
// phone field accepts when a number is read in region.
func PhoneProblem(region string) string {
	international, national := PhoneExamples(region)
	return "Enter a phone number such as " + national + ", or with its country code, such as " + international + "."
}

// PhoneSearchText returns the forms of a stored number that a search
// matches as typed: the number as stored, in E.164 and, since people
// search the way they dial, in its national form in digits
// ("0491570925"). A stored value that is not a number is returned as it
// is.
func PhoneSearchText(stored string) string {
	n, ok := e164Phone(stored)
	if !ok {
		n, ok = parsePhone(stored, DefaultPhoneRegion)
	}
	if !ok {
		return stored
	}
	forms := []string{phonenumbers.Format(n, phonenumbers.E164), phoneDigits(phonenumbers.Format(n, phonenumbers.NATIONAL))}
	if d := phoneDigits(stored); d != forms[0] && d != forms[1] {
		forms = append(forms, d)
	}
	return strings.Join(forms, " ")
}

// PhoneQuery returns what a search for q matches among stored numbers
// (PhoneSearchText): q in E.164 when it is a whole number (read in
// region like any written number), else the digits of q, with a leading
// + kept, when q is part of a number ("570 925"). ok is false when q is
// not written as a phone number at all.
func PhoneQuery(q, region string) (string, bool) {
	if e164, ok := NormalizePhone(q, region); ok {
		return e164, true
	}
	if !typedAsPhone(q) {
		return "", false
	}
	d := phoneDigits(q)
	return d, len(strings.TrimPrefix(d, "+")) >= 3
}

// parsePhone parses s, written with the characters people type in a
// number, as a valid number, reading it in region when it has no leading
// +.
func parsePhone(s, region string) (*phonenumbers.PhoneNumber, bool) {
	if !typedAsPhone(s) {
		return nil, false
	}
	n, err := phonenumbers.Parse(s, region)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return nil, false
	}
	return n, true
}

// e164Phone reads s when it is written in E.164, the shape every number
// is stored in, without the general parser: the country code is the one
// prefix of s that is a dial code (dial codes are prefix-free), and the
// rest is the national significant number, leading zeros kept as the
// parser keeps them. Numbers are checked against their plan when they
// are written, so it does not check again: for a valid number it is what
// parsePhone(s, region) returns, at a tenth of the cost. ok is false
// when s is not E.164 or names no country.
func e164Phone(s string) (*phonenumbers.PhoneNumber, bool) {
	if len(s) < 3 || len(s) > 16 || s[0] != '+' || s[1] == '0' {
		return nil, false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return nil, false
		}
	}
	for l := 1; l <= 3 && 1+l < len(s); l++ {
		cc, _ := strconv.Atoi(s[1 : 1+l])
		if phonenumbers.GetRegionCodeForCountryCode(cc) == phonenumbers.UNKNOWN_REGION {
			continue
		}
		nsn := s[1+l:]
		national, err := strconv.ParseUint(nsn, 10, 64)
		if err != nil {
			return nil, false
		}
		code := int32(cc)
		n := &phonenumbers.PhoneNumber{CountryCode: &code, NationalNumber: &national}
		if len(nsn) > 1 && nsn[0] == '0' {
			italian := true
			n.ItalianLeadingZero = &italian
			zeros := 1
			for zeros < len(nsn)-1 && nsn[zeros] == '0' {
				zeros++
			}
			if zeros != 1 {
				z := int32(zeros)
				n.NumberOfLeadingZeros = &z
			}
		}
		return n, true
	}
	return nil, false
}

// typedAsPhone reports whether s holds only what people type in a phone
// number: digits, a leading +, and spaces, hyphens, dots and brackets.
func typedAsPhone(s string) bool {
	s = strings.TrimSpace(s)
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9', r == '+' && i == 0:
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return false
		}
	}
	return s != ""
}

// phoneDigits returns the digits of s with a leading + kept.
func phoneDigits(s string) string {
	var b strings.Builder
	for i, r := range strings.TrimSpace(s) {
		if r >= '0' && r <= '9' || r == '+' && i == 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
