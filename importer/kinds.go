package importer

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	practiced "github.com/practiced/practiced"
)

// A kind is what one kind of file holds: its columns, and how a row
// becomes the body of the API's create operation.
type kind struct {
	name string
	// columns maps every accepted column name, normalized, to its field.
	columns map[string]string
	// ours lists the column names export writes, in order.
	ours []string
	// aliases are the other names accepted, as their files write them.
	aliases []string
}

// Fields every kind of person shares, by our column name. Phone columns
// hold one number each, of their type; address_* fill the address.
var personColumns = []string{
	"title", "first_name", "last_name", "preferred_name", "email", "notes",
	"phone_mobile", "phone_home", "phone_work", "phone_fax", "phone_other",
	"address_line1", "address_line2", "address_city", "address_state", "address_postal_code", "address_country_code",
}

var clientKind = newKind("clients",
	append(personColumns, "date_of_birth", "sex", "gender_identity", "pronouns", "profession", "alert", "referral_description"),
	// The columns of a patient export from Cliniko.
	map[string]string{
		"Preferred first name": "preferred_name",
		"Mobile":               "phone_mobile",
		"Home phone":           "phone_home",
		"Work phone":           "phone_work",
		"Address 1":            "address_line1",
		"Address 2":            "address_line2",
		"Address 3":            "address_line3",
		"City":                 "address_city",
		"State":                "address_state",
		"Post code":            "address_postal_code",
		"Country":              "address_country",
		"Occupation":           "profession",
	})

var contactKind = newKind("contacts", append([]string{"type"}, append(personColumns, "profession", "company")...), nil)

// Kinds are the kinds of file import reads and export writes.
var kinds = map[string]*kind{"clients": clientKind, "contacts": contactKind}

// Kinds lists the kinds of record import and export handle.
func Kinds() []string { return []string{"clients", "contacts"} }

func newKind(name string, ours []string, aliases map[string]string) *kind {
	k := &kind{name: name, columns: map[string]string{}, ours: ours}
	for _, c := range ours {
		k.columns[normalize(c)] = c
	}
	for alias, field := range aliases {
		k.columns[normalize(alias)] = field
		k.aliases = append(k.aliases, alias)
	}
	sort.Strings(k.aliases)
	return k
}

// accepted lists the column names of k for an error message.
func (k *kind) accepted() []string {
	return append(append([]string(nil), k.ours...), k.aliases...)
}

var phoneTypes = []string{"mobile", "home", "work", "fax", "other"}

var dayFirst = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})$`)

// body turns a row into the body of the create operation, and names,
// for each field path of the body, the column it came from, so that the
// API's messages can name the column. Values the API would not
// recognise at all (a country's name) are translated here, or fail here.
func (k *kind) body(row map[string]string, header map[string]string) (body map[string]any, from map[string]string, errs []FieldError) {
	body = map[string]any{}
	from = map[string]string{}
	address := map[string]any{}
	var phones []any
	for _, typ := range phoneTypes {
		if n, ok := row["phone_"+typ]; ok {
			from[fmt.Sprintf("phone_numbers.%d", len(phones))] = header["phone_"+typ]
			phones = append(phones, map[string]any{"number": n, "type": typ})
		}
	}
	for field, v := range row {
		switch {
		case strings.HasPrefix(field, "phone_"):
		case field == "address_line3":
			// Cliniko's third address line joins the second.
		case field == "address_country":
			code, ok := countryCode(v)
			if !ok {
				errs = append(errs, FieldError{Field: header[field], Message: fmt.Sprintf("%q is neither a country's English name nor its two-letter code", v)})
				continue
			}
			address["country_code"] = code
			from["address.country_code"] = header[field]
		case strings.HasPrefix(field, "address_"):
			sub := strings.TrimPrefix(field, "address_")
			address[sub] = v
			from["address."+sub] = header[field]
		case field == "date_of_birth":
			if m := dayFirst.FindStringSubmatch(v); m != nil {
				v = fmt.Sprintf("%s-%02s-%02s", m[3], m[2], m[1])
			}
			body[field] = v
			from[field] = header[field]
		default:
			body[field] = v
			from[field] = header[field]
		}
	}
	if l3, ok := row["address_line3"]; ok {
		if l2, ok := address["line2"].(string); ok {
			address["line2"] = l2 + ", " + l3
		} else {
			address["line2"] = l3
			from["address.line2"] = header["address_line3"]
		}
	}
	if len(address) > 0 {
		body["address"] = address
	}
	if len(phones) > 0 {
		body["phone_numbers"] = phones
	}
	return body, from, errs
}

// countryByName maps English country names, folded, to their codes.
var countryByName = func() map[string]string {
	m := map[string]string{}
	names := display.English.Regions()
	for _, code := range practiced.CountryCodes() {
		r, err := language.ParseRegion(code)
		if err != nil {
			continue
		}
		m[normalize(names.Name(r))] = code
	}
	// Names people write that differ from the standard English ones.
	for name, code := range map[string]string{
		"United States of America": "US", "USA": "US", "UK": "GB", "England": "GB", "Scotland": "GB", "Wales": "GB",
		"Northern Ireland": "GB", "Great Britain": "GB", "Viet Nam": "VN", "South Korea": "KR", "Czech Republic": "CZ",
	} {
		m[normalize(name)] = code
	}
	return m
}()

// countryCode reads a country's two-letter code or English name.
func countryCode(v string) (string, bool) {
	if len(v) == 2 {
		code := strings.ToUpper(v)
		return code, practiced.IsCountry(code)
	}
	code, ok := countryByName[normalize(v)]
	return code, ok
}
