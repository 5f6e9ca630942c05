package httpapi

import (
	"net/http"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

func clientID(c practiced.Client) string { return c.ID }

// GET /v1/clients
func (s *Server) listClients(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "clients", 100)
	f := personFilter(l)
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListClients(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, clientID)
}

// POST /v1/clients: the update body, with first_name and last_name required.
func (s *Server) createClient(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	id := tid.New(practiced.PrefixClient)
	for _, f := range []string{"first_name", "last_name"} {
		if !o.has(f) {
			errs.Add(f, "is required")
		}
	}
	patch := readClientPatch(o, id, s.now())
	if err := s.checkRefs(ctx, biz, &errs, patch.refs...); err != nil {
		return err
	}
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	c := practiced.Client{ID: id, CreatedAt: now, UpdatedAt: now}
	patch.apply(&c)
	if err := checkMergedClient(&c); err != nil {
		return err
	}
	if err := s.store.CreateClient(ctx, biz, &c); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, c)
	return nil
}

// Length limits of client fields.
const (
	shortText = 255
	longText  = 500
	maxItems  = 100
)

// POST /v1/clients/{client}: a partial update. Only fields sent change;
// null clears a field; lists are replaced whole; nested objects (address,
// ndis_details) change field by field.
func (s *Server) updateClient(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	biz := businessID(ctx)
	id := r.PathValue("client")
	if !tid.Valid(id, practiced.PrefixClient) {
		return practiced.NotFound("Client")
	}
	if _, err := s.store.GetClient(ctx, biz, id); err != nil {
		return err
	}
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	patch := readClientPatch(o, id, s.now())
	// References are checked even when other fields failed, so every
	// failure is reported at once.
	if err := s.checkRefs(ctx, biz, &errs, patch.refs...); err != nil {
		return err
	}
	if err := errs.Err(); err != nil {
		return err
	}
	now := practiced.NewTime(s.now())
	c, err := s.store.UpdateClient(ctx, biz, id, func(c *practiced.Client) error {
		patch.apply(c)
		c.UpdatedAt = now
		return checkMergedClient(c)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c)
	return nil
}

// checkMergedClient checks rules that span fields, on the client as the
// update leaves it, since one side may come from the stored record.
func checkMergedClient(c *practiced.Client) error {
	if n := c.NDISDetails; n != nil && n.PlanStartDate != nil && n.PlanEndDate != nil && n.PlanEndDate.Before(n.PlanStartDate.Time) {
		return practiced.Invalid("ndis_details.plan_end_date", "must not be before plan_start_date ("+n.PlanStartDate.String()+")")
	}
	return nil
}

// clientPatch is a checked update body: a list of changes to apply to the
// stored client, and the references they make.
type clientPatch struct {
	changes []func(*practiced.Client)
	refs    []ref
}

func (p *clientPatch) apply(c *practiced.Client) {
	for _, f := range p.changes {
		f(c)
	}
}

func (p *clientPatch) change(f func(*practiced.Client)) { p.changes = append(p.changes, f) }

// text registers a change of a plain text field: null clears it.
func (p *clientPatch) text(v opt[string], dst func(*practiced.Client) *string) {
	if v.Set {
		p.change(func(c *practiced.Client) { *dst(c) = v.V })
	}
}

// nullable registers a change of a field that is null when unset.
func (p *clientPatch) nullable(v opt[string], dst func(*practiced.Client) **string) {
	if v.Set {
		p.change(func(c *practiced.Client) { *dst(c) = optPtr(v) })
	}
}

// reference registers a change of an id field and the reference it makes.
func (p *clientPatch) reference(field string, v opt[string], dst func(*practiced.Client) **string) {
	p.nullable(v, dst)
	if v.Set && !v.Null {
		p.refs = append(p.refs, ref{field, v.V})
	}
}

func readClientPatch(o *object, clientID string, now time.Time) *clientPatch {
	p := &clientPatch{}
	p.text(o.str("title", shortText), func(c *practiced.Client) *string { return &c.Title })
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
		p.text(v, dst)
	}
	p.text(o.str("preferred_name", shortText), func(c *practiced.Client) *string { return &c.PreferredName })
	p.text(o.str("profession", shortText), func(c *practiced.Client) *string { return &c.Profession })
	p.text(o.email("email"), func(c *practiced.Client) *string { return &c.Email })
	dob := o.date("date_of_birth", true)
	if dob.Set && !dob.Null && dob.V > latestToday(now) {
		o.fail("date_of_birth", "cannot be in the future")
	} else {
		p.nullable(dob, func(c *practiced.Client) **string { return &c.DateOfBirth })
	}
	p.text(o.str("sex", shortText), func(c *practiced.Client) *string { return &c.Sex })
	p.text(o.str("gender_identity", shortText), func(c *practiced.Client) *string { return &c.GenderIdentity })
	p.text(o.str("pronouns", shortText), func(c *practiced.Client) *string { return &c.Pronouns })
	p.nullable(o.enum("privacy_policy_consent", practiced.PrivacyConsents), func(c *practiced.Client) **string { return &c.PrivacyPolicyConsent })
	p.nullable(o.enum("marketing_consent", practiced.MarketingConsents), func(c *practiced.Client) **string { return &c.MarketingConsent })
	p.nullable(o.enum("consent_method", practiced.ConsentMethods), func(c *practiced.Client) **string { return &c.ConsentMethod })
	p.reference("emergency_contact_id", o.id("emergency_contact_id", practiced.PrefixContact), func(c *practiced.Client) **string { return &c.EmergencyContactID })
	p.text(o.str("emergency_contact_relationship", shortText), func(c *practiced.Client) *string { return &c.EmergencyContactRelationship })
	p.reference("invoice_contact_id", o.id("invoice_contact_id", practiced.PrefixContact), func(c *practiced.Client) **string { return &c.InvoiceContactID })
	p.text(o.str("notes", longText), func(c *practiced.Client) *string { return &c.Notes })
	p.text(o.str("alert", longText), func(c *practiced.Client) *string { return &c.Alert })
	p.reference("referral_type_id", o.id("referral_type_id", practiced.PrefixReferralType), func(c *practiced.Client) **string { return &c.ReferralTypeID })
	p.text(o.str("referral_description", longText), func(c *practiced.Client) *string { return &c.ReferralDescription })
	referredBy := o.id("referred_by_id", practiced.PrefixClient, practiced.PrefixContact)
	if referredBy.Set && referredBy.V == clientID {
		o.fail("referred_by_id", "cannot be the client itself")
	} else {
		p.reference("referred_by_id", referredBy, func(c *practiced.Client) **string { return &c.ReferredByID })
	}
	p.text(o.phone("phone_number"), func(c *practiced.Client) *string { return &c.PhoneNumber })
	if v := o.strings("intolerances", maxItems, shortText); v.Set {
		p.change(func(c *practiced.Client) { c.Intolerances = v.V })
	}
	if v := o.ids("tag_ids", maxItems, practiced.PrefixTag); v.Set {
		p.change(func(c *practiced.Client) { c.TagIDs = v.V })
		for i, id := range v.V {
			p.refs = append(p.refs, ref{"tag_ids." + itoa(i), id})
		}
	} else if v.Null {
		p.change(func(c *practiced.Client) { c.TagIDs = nil })
	}
	readAddressPatch(o, p)
	readNDISPatch(o, p)
	readClientLists(o, p, clientID)
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
func readAddressPatch(o *object, p *clientPatch) {
	if change := o.addressPatch("address"); change != nil {
		p.change(func(c *practiced.Client) { change(&c.Address) })
	}
}

// readNDISPatch reads ndis_details. null clears them; an object changes
// only the parts it carries.
func readNDISPatch(o *object, p *clientPatch) {
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
			p.refs = append(p.refs, ref{"ndis_details.plan_manager_id", v.V})
		}
	}
	if v := n.id("plan_nominee_id", practiced.PrefixContact); v.Set {
		ndis(func(d *practiced.NDISDetails) { d.PlanNomineeID = optPtr(v) })
		if !v.Null {
			p.refs = append(p.refs, ref{"ndis_details.plan_nominee_id", v.V})
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

// readClientLists reads the lists of objects, each replaced whole.
func readClientLists(o *object, p *clientPatch, clientID string) {
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

	if phones, set := o.phoneNumbers("phone_numbers", 20); set {
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
			p.refs = append(p.refs, ref{it.name("related_client_id"), id.V})
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
			p.refs = append(p.refs, ref{it.name("contact_id"), id.V})
		}
		linked = append(linked, lc)
	}); set || null {
		p.change(func(c *practiced.Client) { c.LinkedContacts = linked })
	}
}

// clientRoute lets a handler that reads the {id} path value serve a
// client route. Client paths name their parameter {client}, as the API
// description and the OpenAPI document do, and one OpenAPI path has one
// parameter name.
func clientRoute(h func(http.ResponseWriter, *http.Request) error) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		r.SetPathValue("id", r.PathValue("client"))
		return h(w, r)
	}
}
