package importer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/internal/testfix"
	"github.com/practiced/practiced/sqlstore"
)

// cliniko is a patient export as Cliniko writes it, with the odd rows a
// real one has: a byte-order mark, semicolons, a note over two lines,
// day-first dates, countries by name, a third address line.
const cliniko = "\ufeffTitle;First name;Last name;Preferred first name;Date of birth;Sex;Email;Mobile;Home phone;Work phone;Address 1;Address 2;Address 3;City;State;Post code;Country;Occupation;Notes\n" +
	"Ms;Ada;Lovelace;Addie;10/12/1985;Female;ada@example.com;0491 570 156;(02) 5550 1234;;Unit 4;12 King St;Rear entrance;Newtown;NSW;2042;Australia;Engineer;\"Prefers mornings.\nAllergic to latex.\"\n" +
	"Mr;Bo;Chen;;1979-03-02;;bo@example.com;;;;;;;Auckland;;1010;New Zealand;;\n" +
	";Cy;Dee;;;;;;;;;;;;;;;;\n"

func importString(t *testing.T, st *sqlstore.Store, biz, kind, csv string, dry bool) (int, error) {
	t.Helper()
	return Import(context.Background(), Options{Store: st, Business: biz, Kind: kind, DryRun: dry,
		Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(csv)), nil }})
}

func allClients(t *testing.T, st *sqlstore.Store, biz string) []practiced.Client {
	t.Helper()
	var out []practiced.Client
	page := practiced.PageRequest{Limit: 100}
	for {
		list, info, err := st.ListClients(context.Background(), biz, practiced.PersonFilter{}, page)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, list...)
		if !info.HasNext {
			return out
		}
		page.After = info.LastID
	}
}

func TestImportClinikoClients(t *testing.T) {
	st := testfix.SQLiteStore(t)
	biz, _ := st.CreateBusiness(context.Background(), "Moving Clinic")
	n, err := importString(t, st, biz.ID, "clients", cliniko, false)
	if err != nil || n != 3 {
		t.Fatalf("import: %d rows, %v", n, err)
	}
	got := allClients(t, st, biz.ID)
	if len(got) != 3 {
		t.Fatalf("%d clients stored", len(got))
	}
	byName := map[string]practiced.Client{}
	for _, c := range got {
		byName[c.FirstName] = c
	}
	ada := byName["Ada"]
	line2 := "12 King St, Rear entrance"
	if ada.Title != "Ms" || ada.LastName != "Lovelace" || ada.PreferredName != "Addie" || ada.Sex != "Female" ||
		ada.Email != "ada@example.com" || ada.Profession != "Engineer" || ada.Notes != "Prefers mornings.\nAllergic to latex." ||
		ada.DateOfBirth == nil || *ada.DateOfBirth != "1985-12-10" {
		t.Errorf("Ada: %+v", ada)
	}
	a := ada.Address
	if a.Line1 != "Unit 4" || a.Line2 == nil || *a.Line2 != line2 || a.City != "Newtown" || a.State != "NSW" || a.PostalCode != "2042" || a.CountryCode != "AU" {
		t.Errorf("Ada's address: %+v (line2 %v)", a, a.Line2)
	}
	if len(ada.PhoneNumbers) != 2 || ada.PhoneNumbers[0].Type != "mobile" || ada.PhoneNumbers[0].Code+ada.PhoneNumbers[0].Number != "+61491570156" ||
		ada.PhoneNumbers[1].Type != "home" || ada.PhoneNumbers[1].Code+ada.PhoneNumbers[1].Number != "+61255501234" {
		t.Errorf("Ada's phones: %+v", ada.PhoneNumbers)
	}
	bo := byName["Bo"]
	if bo.Address.CountryCode != "NZ" || bo.Address.City != "Auckland" || bo.DateOfBirth == nil || *bo.DateOfBirth != "1979-03-02" {
		t.Errorf("Bo: %+v", bo)
	}
	if cy := byName["Cy"]; cy.LastName != "Dee" || cy.Email != "" || len(cy.PhoneNumbers) != 0 {
		t.Errorf("Cy: %+v", cy)
	}
}

func TestImportReportsEveryBadRowAndStoresNothing(t *testing.T) {
	st := testfix.SQLiteStore(t)
	biz, _ := st.CreateBusiness(context.Background(), "Careful Clinic")
	csv := "first_name,last_name,email,date_of_birth,Country,phone_mobile\n" +
		"Ann,Able,ann@example.com,1990-01-01,AU,0491 570 156\n" +
		"Ben,,not-an-email,31/02/1990,Neverland,12\n" +
		"\"Cat\nCole\",Cole,cat@example.com,,,\n" +
		",Dow,,,,\n"
	_, err := importString(t, st, biz.ID, "clients", csv, false)
	failed := wantErrors(t, err,
		`line 3: Country: "Neverland" is neither a country's English name nor its two-letter code`,
		"line 3: last_name: is required",
		"line 3: email: must be an e-mail address such as name@example.com",
		"line 3: date_of_birth: must be a date such as 1990-05-31",
		"line 3: phone_mobile: must be a phone number in international format, such as +61 412 345 678, or in the national format of AU (the record's address.country_code, else AU), such as 0412 345 678",
		"line 6: first_name: is required",
	)
	if failed.Rows != 2 || failed.Total != 6 {
		t.Errorf("%d rows and %d errors, want 2 and 6", failed.Rows, failed.Total)
	}
	if got := allClients(t, st, biz.ID); len(got) != 0 {
		t.Errorf("a failing file stored %d clients", len(got))
	}
}

// wantErrors checks that err lists exactly the failures want, in order,
// and returns it.
func wantErrors(t *testing.T, err error, want ...string) *Errors {
	t.Helper()
	var failed *Errors
	if !errors.As(err, &failed) {
		t.Fatalf("err = %v, want *Errors", err)
	}
	var lines []string
	for _, e := range failed.List {
		lines = append(lines, e.String())
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	return failed
}

func TestImportFileErrors(t *testing.T) {
	st := testfix.SQLiteStore(t)
	biz, _ := st.CreateBusiness(context.Background(), "Odd Files Clinic")
	for _, c := range []struct{ name, kind, csv, want string }{
		{"empty", "clients", "", "nothing was imported: the file is empty: its first line must name the columns"},
		{"unknown column", "clients", "first_name,last_name,shoe_size\n", `nothing was imported: unknown column "shoe_size"; the columns are title, first_name,`},
		{"a field twice", "clients", "Mobile,phone_mobile,first_name\n", `nothing was imported: columns "Mobile" and "phone_mobile" both fill phone_mobile`},
		{"too many cells", "clients", "first_name,last_name\nAnn,Able,extra\n", "nothing was imported: line 2 has 3 cells, more than the header's 2 columns"},
		{"unknown kind", "invoices", "first_name\n", `cannot import "invoices": use clients, contacts or appointments`},
	} {
		_, err := importString(t, st, biz.ID, c.kind, c.csv, false)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if n, err := importString(t, st, biz.ID, "clients", "first_name;last_name\n", false); n != 0 || err != nil {
		t.Errorf("a header alone: %d rows, %v", n, err)
	}
	if n, err := importString(t, st, biz.ID, "clients", cliniko, true); n != 3 || err != nil {
		t.Errorf("dry run: %d rows, %v", n, err)
	}
	if got := allClients(t, st, biz.ID); len(got) != 0 {
		t.Errorf("%d clients stored by files that failed or a dry run", len(got))
	}
}

// TestExportImportRoundTrip exports clients as CSV and imports the file
// into another business: the same people, field by field; and exports
// NDJSON, which is each record's API document.
func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := testfix.SQLiteStore(t)
	from, _ := st.CreateBusiness(ctx, "Old Clinic")
	to, _ := st.CreateBusiness(ctx, "New Clinic")
	if _, err := importString(t, st, from.ID, "clients", cliniko, false); err != nil {
		t.Fatal(err)
	}
	var csvOut bytes.Buffer
	if n, err := Export(ctx, st, from.ID, "clients", "csv", &csvOut, nil); n != 3 || err != nil {
		t.Fatalf("export: %d, %v", n, err)
	}
	if _, err := importString(t, st, to.ID, "clients", csvOut.String(), false); err != nil {
		t.Fatalf("re-import: %v\n%s", err, csvOut.String())
	}
	strip := func(cs []practiced.Client) map[string]practiced.Client {
		out := map[string]practiced.Client{}
		for _, c := range cs {
			c.ID, c.CreatedAt, c.UpdatedAt = "", practiced.Time{}, practiced.Time{}
			for i := range c.PhoneNumbers {
				c.PhoneNumbers[i].ID = ""
			}
			out[c.FirstName] = c
		}
		return out
	}
	a, b := strip(allClients(t, st, from.ID)), strip(allClients(t, st, to.ID))
	if len(a) != 3 || !reflect.DeepEqual(a, b) {
		t.Errorf("exported\n%+v\nre-imported\n%+v", a, b)
	}

	var nd bytes.Buffer
	if _, err := Export(ctx, st, from.ID, "clients", "ndjson", &nd, nil); err != nil {
		t.Fatal(err)
	}
	docs, _, err := st.ListClientDocs(ctx, from.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for _, d := range docs {
		want.WriteString(string(d))
		want.WriteByte('\n')
	}
	if nd.String() != want.String() {
		t.Errorf("ndjson:\n%s\nwant the API's documents:\n%s", nd.String(), want.String())
	}
	if _, err := Export(ctx, st, from.ID, "clients", "xml", io.Discard, nil); err == nil || err.Error() != `unknown format "xml": use csv or ndjson` {
		t.Errorf("xml: %v", err)
	}
}

// TestImportContacts reads contacts by our own column names.
func TestImportContacts(t *testing.T) {
	ctx := context.Background()
	st := testfix.SQLiteStore(t)
	biz, _ := st.CreateBusiness(ctx, "Contacts Clinic")
	csv := "type,company,first_name,last_name,email,phone_work,address_line1,address_city,address_country_code\n" +
		"third_party_payer,Medibank,,,claims@example.com,+61 2 5550 0000,1 Collins St,Melbourne,AU\n" +
		"referrer,,Gina,Grey,gina@example.com,,,,\n"
	if n, err := importString(t, st, biz.ID, "contacts", csv, false); n != 2 || err != nil {
		t.Fatalf("%d, %v", n, err)
	}
	list, _, err := st.ListContacts(ctx, biz.ID, practiced.PersonFilter{}, practiced.PageRequest{Limit: 10})
	if err != nil || len(list) != 2 {
		t.Fatalf("%d contacts, %v", len(list), err)
	}
	for _, c := range list {
		switch c.Type {
		case "third_party_payer":
			if c.Company != "Medibank" || c.Address.City != "Melbourne" || len(c.PhoneNumbers) != 1 || c.PhoneNumbers[0].Type != "work" {
				t.Errorf("payer: %+v", c)
			}
		case "referrer":
			if c.FirstName != "Gina" || c.LastName != "Grey" {
				t.Errorf("referrer: %+v", c)
			}
		default:
			t.Errorf("contact of type %q", c.Type)
		}
	}
	_, err = importString(t, st, biz.ID, "contacts", "type,first_name\nfriend,Hal\n", false)
	if err == nil || !strings.Contains(err.Error(), "line 2: type: must be one of") {
		t.Errorf("a bad type: %v", err)
	}
}
