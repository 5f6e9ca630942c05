package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
)

// GET /v1/clients
func (s *Server) listClients(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "clients", 100)
	f := personFilter(l)
	if err := l.done(); err != nil {
		return err
	}
	if s.pages != nil {
		return s.respondVersionedList(w, r, l, knownClientsVersion(r.Context()), s.versions.ClientsVersion, func() ([]practiced.Doc, practiced.PageInfo, int64, error) {
			return s.versions.ListClientDocsAt(r.Context(), businessID(r.Context()), f, l.page)
		})
	}
	data, info, err := s.store.ListClientDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// clients creates and updates clients. A create body is an update body
// with first_name and last_name required. An update changes only the
// fields sent; null clears a field; lists are replaced whole; nested
// objects (address, ndis_details) change field by field.
func (s *Server) clients() *resource[practiced.Client] {
	return &resource[practiced.Client]{
		kind: practiced.KindClient,
		get:  s.store.GetClient, create: s.store.CreateClient, update: s.store.UpdateClient,
		fresh: func(id string, now practiced.Time) practiced.Client {
			return practiced.Client{ID: id, CreatedAt: now, UpdatedAt: now}
		},
		read: func(o *object, stored *practiced.Client) *patch[practiced.Client] {
			return readClient(o, stored, s.now())
		},
		check: checkClient,
		touch: func(c *practiced.Client, now practiced.Time) { c.UpdatedAt = now },
	}
}

// Length limits of client fields.
const (
	shortText = 255
	longText  = 500
	maxItems  = 100
)

// checkClient checks the rules that span fields, on the client as the
// change leaves it, since one side may come from the stored record.
func checkClient(c *practiced.Client, errs *practiced.FieldErrors) {
	if n := c.NDISDetails; n != nil && n.PlanStartDate != nil && n.PlanEndDate != nil && n.PlanEndDate.Before(n.PlanStartDate.Time) {
		errs.Add("ndis_details.plan_end_date", "must not be before plan_start_date ("+n.PlanStartDate.String()+")")
	}
}

// readClient reads a create body (stored is nil) or an update body of
// the stored client.
func readClient(o *object, stored *practiced.Client, now time.Time) *patch[practiced.Client] {
	// A new client's id is new, so no field of a create body can name it.
	var clientID string
	if stored == nil {
		for _, f := range []string{"first_name", "last_name"} {
			if !o.has(f) {
				o.errs.Add(f, "is required")
			}
		}
	} else {
		clientID = stored.ID
	}
	p := &patch[practiced.Client]{}
	setText(p, o.str("title", shortText), func(c *practiced.Client) *string { return &c.Title })
	for _, f := range []struct {
		field string
		dst   func(*practiced.Client) *string
	}{
		{"first_name", func(c *practiced.Client) *string { return &c.FirstName }},
		{"last_name", func(c *practiced.Client) *string { return &c.LastName }},
	} {
		field, dst := f.field, f.dst
		v := o.str(field, shortText)
		if v.Null || v.Set && strings.TrimSpace(v.V) == "" {
			o.fail(field, "cannot be empty: a client needs a first and last name")
			continue
		}
		setText(p, v, dst)
	}
	setText(p, o.str("preferred_name", shortText), func(c *practiced.Client) *string { return &c.PreferredName })
	setText(p, o.str("profession", shortText), func(c *practiced.Client) *string { return &c.Profession })
	setText(p, o.email("email"), func(c *practiced.Client) *string { return &c.Email })
	dob := o.date("date_of_birth", true)
	if dob.Set && !dob.Null && dob.V > latestToday(now) {
		o.fail("date_of_birth", "cannot be in the future")
	} else {
		setOptional(p, dob, func(c *practiced.Client) **string { return &c.DateOfBirth })
	}
	setText(p, o.str("sex", shortText), func(c *practiced.Client) *string { return &c.Sex })
	setText(p, o.str("gender_identity", shortText), func(c *practiced.Client) *string { return &c.GenderIdentity })
	setText(p, o.str("pronouns", shortText), func(c *practiced.Client) *string { return &c.Pronouns })
	setOptional(p, o.enum("privacy_policy_consent", practiced.PrivacyConsents), func(c *practiced.Client) **string { return &c.PrivacyPolicyConsent })
	setOptional(p, o.enum("marketing_consent", practiced.MarketingConsents), func(c *practiced.Client) **string { return &c.MarketingConsent })
	setBool(p, o.boolean("no_messages"), func(c *practiced.Client) *bool { return &c.NoMessages })
	setOptional(p, o.enum("consent_method", practiced.ConsentMethods), func(c *practiced.Client) **string { return &c.ConsentMethod })
	setRef(p, "emergency_contact_id", o.id("emergency_contact_id", practiced.PrefixContact), func(c *practiced.Client) **string { return &c.EmergencyContactID })
	setText(p, o.str("emergency_contact_relationship", shortText), func(c *practiced.Client) *string { return &c.EmergencyContactRelationship })
	setRef(p, "invoice_contact_id", o.id("invoice_contact_id", practiced.PrefixContact), func(c *practiced.Client) **string { return &c.InvoiceContactID })
	setText(p, o.str("notes", longText), func(c *practiced.Client) *string { return &c.Notes })
	setText(p, o.str("alert", longText), func(c *practiced.Client) *string { return &c.Alert })
	setRef(p, "referral_type_id", o.id("referral_type_id", practiced.PrefixReferralType), func(c *practiced.Client) **string { return &c.ReferralTypeID })
	setText(p, o.str("referral_description", longText), func(c *practiced.Client) *string { return &c.ReferralDescription })
	referredBy := o.id("referred_by_id", practiced.PrefixClient, practiced.PrefixContact)
	if referredBy.Set && clientID != "" && referredBy.V == clientID {
		o.fail("referred_by_id", "cannot be the client itself")
	} else {
		setRef(p, "referred_by_id", referredBy, func(c *practiced.Client) **string { return &c.ReferredByID })
	}
	var country string
	if stored != nil {
		country = stored.Address.CountryCode
	}
	region := o.phoneRegion(country)
	setText(p, o.phone("phone_number", region), func(c *practiced.Client) *string { return &c.PhoneNumber })
	if v := o.strings("intolerances", maxItems, shortText); v.Set {
		p.change(func(c *practiced.Client) { c.Intolerances = v.V })
	}
	if v := o.ids("tag_ids", maxItems, practiced.PrefixTag); v.Set {
		p.change(func(c *practiced.Client) { c.TagIDs = v.V })
		for i, id := range v.V {
			p.ref("tag_ids."+strconv.Itoa(i), id)
		}
	} else if v.Null {
		p.change(func(c *practiced.Client) { c.TagIDs = nil })
	}
	readAddressPatch(o, p)
	readNDISPatch(o, p)
	readClientLists(o, p, clientID, region)
	o.finish()
	return p
}

// latestToday is today's date where the day is furthest ahead (UTC+14),
// so a date of birth of "today" anywhere is never refused.
func latestToday(now time.Time) string {
	return now.UTC().Add(14 * time.Hour).Format(time.DateOnly)
}

// readAddressPatch reads the address object. null clears the address;
// an object changes only the parts it carries.
func readAddressPatch(o *object, p *patch[practiced.Client]) {
	if change := o.addressPatch("address"); change != nil {
		p.change(func(c *practiced.Client) { change(&c.Address) })
	}
}

// readNDISPatch reads ndis_details. null clears them; an object changes
// only the parts it carries.
func readNDISPatch(o *object, p *patch[practiced.Client]) {
	n, set, null := o.obj("ndis_details")
	if null {
		p.change(func(c *practiced.Client) { c.NDISDetails = nil })
		return
	}
	if !set || n == nil {
		return
	}
	p.change(func(c *practiced.Client) {
		if c.NDISDetails == nil {
			c.NDISDetails = &practiced.NDISDetails{Diagnoses: []string{}}
		}
	})
	ndis := func(f func(d *practiced.NDISDetails)) {
		p.change(func(c *practiced.Client) { f(c.NDISDetails) })
	}
	if v := n.str("ndis_number", shortText); v.Set {
		ndis(func(d *practiced.NDISDetails) { d.NDISNumber = v.V })
	}
	start, end := n.timestamp("plan_start_date"), n.timestamp("plan_end_date")
	if start.Set {
		ndis(func(d *practiced.NDISDetails) { d.PlanStartDate = timePtr(start) })
	}
	if end.Set {
		ndis(func(d *practiced.NDISDetails) { d.PlanEndDate = timePtr(end) })
	}
	if v := n.id("plan_manager_id", practiced.PrefixContact); v.Set {
		ndis(func(d *practiced.NDISDetails) { d.PlanManagerID = optPtr(v) })
		if !v.Null {
			p.ref("ndis_details.plan_manager_id", v.V)
		}
	}
	if v := n.id("plan_nominee_id", practiced.PrefixContact); v.Set {
		ndis(func(d *practiced.NDISDetails) { d.PlanNomineeID = optPtr(v) })
		if !v.Null {
			p.ref("ndis_details.plan_nominee_id", v.V)
		}
	}
	if v := n.strings("diagnoses", maxItems, shortText); v.Set {
		ndis(func(d *practiced.NDISDetails) {
			d.Diagnoses = v.V
			if d.Diagnoses == nil {
				d.Diagnoses = []string{}
			}
		})
	}
	n.finish()
}

func timePtr(v opt[time.Time]) *practiced.Time {
	if !v.Set || v.Null {
		return nil
	}
	return practiced.TimePtr(v.V)
}

// readClientLists reads the lists of objects, each replaced whole; phone
// numbers without a country are read in region.
func readClientLists(o *object, p *patch[practiced.Client], clientID, region string) {
	var meds []practiced.Medication
	if set, null := o.objects("medications", maxItems, func(i int, it *object) {
		name := it.requiredStr("name", shortText)
		dosage := it.str("dosage", shortText)
		it.finish()
		meds = append(meds, practiced.Medication{Name: name.V, Dosage: dosage.V})
	}); set || null {
		p.change(func(c *practiced.Client) { c.Medications = meds })
	}

	var allergies []practiced.Allergy
	if set, null := o.objects("allergies", maxItems, func(i int, it *object) {
		name := it.requiredStr("name", shortText)
		reaction := it.str("reaction", shortText)
		it.finish()
		allergies = append(allergies, practiced.Allergy{Name: name.V, Reaction: reaction.V})
	}); set || null {
		p.change(func(c *practiced.Client) { c.Allergies = allergies })
	}

	if phones, set := o.phoneNumbers("phone_numbers", 20, region); set {
		// A number sent with the id of one of the client's numbers keeps
		// that id; any other gets a new one.
		p.change(func(c *practiced.Client) { c.PhoneNumbers = mergePhoneNumbers(c.PhoneNumbers, phones) })
	}

	var related []practiced.RelatedClient
	seen := map[string]bool{}
	if set, null := o.objects("related_clients", maxItems, func(i int, it *object) {
		id := it.requiredID("related_client_id", practiced.PrefixClient)
		it.finish()
		switch {
		case !id.Set || id.Null:
		case id.V == clientID:
			it.fail("related_client_id", "cannot be the client itself")
		case seen[id.V]:
			it.fail("related_client_id", "repeats a client given earlier")
		default:
			seen[id.V] = true
			p.ref(it.name("related_client_id"), id.V)
			related = append(related, practiced.RelatedClient{RelatedClientID: id.V})
		}
	}); set || null {
		p.change(func(c *practiced.Client) { c.RelatedClients = related })
	}

	var linked []practiced.LinkedContact
	seenContacts := map[string]bool{}
	if set, null := o.objects("linked_contacts", maxItems, func(i int, it *object) {
		id := it.requiredID("contact_id", practiced.PrefixContact)
		lc := practiced.LinkedContact{
			ContactID:                          id.V,
			IncludeInAppointmentNotifications:  it.boolean("include_in_appointment_notifications").V,
			IncludeInInvoiceNotifications:      it.boolean("include_in_invoice_notifications").V,
			IncludeInProgressNoteNotifications: it.boolean("include_in_progress_note_notifications").V,
			Note:                               it.str("note", longText).V,
		}
		it.finish()
		if id.Set && !id.Null {
			if seenContacts[id.V] {
				it.fail("contact_id", "repeats a contact given earlier")
				return
			}
			seenContacts[id.V] = true
			p.ref(it.name("contact_id"), id.V)
		}
		linked = append(linked, lc)
	}); set || null {
		p.change(func(c *practiced.Client) { c.LinkedContacts = linked })
	}
}
