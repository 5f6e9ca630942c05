package demo

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	practiced "github.com/practiced/practiced"
)

// clientYears is how far back the clinic's client list goes.
const clientYears = 5

// clientGen makes clients. Client i is a pure function of the seed and
// i: its creation time is spread evenly over the last five years, and
// everything else is drawn from a generator seeded with i. So clients can
// be made in any batches or on several goroutines with the same result,
// and the appointment builder can recompute a client's id, creation time
// or details without keeping a million of them in memory.
type clientGen struct {
	ids      *idKey
	seed     uint64
	n        int
	now      time.Time
	base     int64 // Unix seconds of the first client's slot
	span     int64 // seconds the clients' creation times are spread over
	archived int   // index of the one archived client, or -1
	refs     *clientRefs

	src   *rand.PCG
	r     *rand.Rand
	idSrc *rand.PCG // a second generator, so id(j) can run inside fill(i)
	idR   *rand.Rand
	buf   []byte
}

// contactRef is a contact a client may refer to.
type contactRef struct {
	id      string
	created time.Time
}

// clientRefs are the records of the business clients refer to. The
// contact lists are in creation order and hold no archived contact.
type clientRefs struct {
	emergency, payers, planManagers, linkable []contactRef
	tags                                      []string
	referralTypes                             []string
}

func newClientGen(seed int64, n int, now time.Time, refs *clientRefs, ids *idKey) *clientGen {
	g := &clientGen{
		ids:      ids,
		seed:     mix(uint64(seed) ^ mix(streamClients)),
		n:        n,
		now:      now,
		base:     now.AddDate(-clientYears, 0, 0).Unix(),
		archived: -1,
		refs:     refs,
		src:      rand.NewPCG(0, 0),
		idSrc:    rand.NewPCG(0, 0),
	}
	g.span = now.Add(-days).Unix() - g.base
	g.r, g.idR = rand.New(g.src), rand.New(g.idSrc)
	if n >= 2 {
		g.archived = n / 2
	}
	return g
}

// clone returns a generator with the same output and its own state, for
// another goroutine.
func (g *clientGen) clone() *clientGen {
	c := *g
	c.src, c.idSrc = rand.NewPCG(0, 0), rand.NewPCG(0, 0)
	c.r, c.idR = rand.New(c.src), rand.New(c.idSrc)
	c.buf = nil
	return &c
}

// createdAt returns when client i was created: in the i-th of n equal
// slots of the last five years, at a point within it fixed by the seed, so
// creation times (and so ids) increase with i.
func (g *clientGen) createdAt(i int) time.Time {
	slot := g.span / int64(g.n)
	off := int64(i) * g.span / int64(g.n)
	if slot > 1 {
		off += int64(mix(g.seed^mix(uint64(i))) % uint64(slot))
	}
	return time.Unix(g.base+off, 0).UTC()
}

// countBefore returns how many clients were created before t; they are
// clients 0 to countBefore(t)-1.
func (g *clientGen) countBefore(t time.Time) int {
	return sort.Search(g.n, func(i int) bool { return !g.createdAt(i).Before(t) })
}

// id returns client i's id without making the rest of it.
func (g *clientGen) id(i int) string {
	g.idSrc.Seed(g.seed, mix(uint64(i)))
	return g.ids.newID(g.idR, practiced.PrefixClient, g.createdAt(i))
}

// Shared values of optional fields; the records only read them.
var (
	accepted, rejected = "accepted", "rejected"
	granted, declined  = "granted", "declined"
	consentMethods     = []*string{ptr("online_booking"), ptr("online_booking"), ptr("in_person"), ptr("in_person"), ptr("over_the_phone"), ptr("paper_form")}
	femaleTitles       = []string{"Ms", "Ms", "Ms", "Mrs", "Mrs", "Miss", "Dr", "", ""}
	maleTitles         = []string{"Mr", "Mr", "Mr", "Mr", "Mr", "Dr", ""}
	parents            = []string{"Mother", "Father", "Carer"}
	linkNotes          = []string{"", "Send progress reports after each review.", "Copy on treatment plan letters."}
)

// fill makes client i in c.
func (g *clientGen) fill(i int, c *practiced.Client) {
	created := g.createdAt(i)
	g.src.Seed(g.seed, mix(uint64(i)))
	r := g.r
	*c = practiced.Client{
		ID:        g.ids.newID(r, practiced.PrefixClient, created), // the same draws as id(i)
		CreatedAt: practiced.NewTime(created),
	}
	female := r.IntN(100) < 56 // allied health sees more women than men
	first, last := personName(r, female)
	c.FirstName, c.LastName = first.text, last.text
	if nick := nicknames[first.text]; nick != "" && chance(r, 50) {
		c.PreferredName = nick
	}

	// People: about one in eight clients is a child (paediatric OT, NDIS).
	child := chance(r, 12)
	age := 18 + r.IntN(72)
	if child {
		age = 3 + r.IntN(15)
	}
	if chance(r, 97) {
		dob := g.now.AddDate(-age, 0, -r.IntN(365)).Format(time.DateOnly)
		c.DateOfBirth = &dob
	}
	switch {
	case r.IntN(500) == 0:
		c.Sex = "intersex"
	case female:
		c.Sex = "female"
	default:
		c.Sex = "male"
	}
	switch n := r.IntN(1000); {
	case n < 15:
		c.GenderIdentity, c.Pronouns = "Non-binary", "they/them"
	case n < 600 && female:
		c.GenderIdentity = "Woman"
	case n < 600:
		c.GenderIdentity = "Man"
	}
	if c.Pronouns == "" && chance(r, 40) {
		c.Pronouns = "he/him"
		if female {
			c.Pronouns = "she/her"
		}
	}
	switch {
	case child && age >= 5:
		c.Profession = "Student"
	case !child:
		c.Title = pick(r, maleTitles)
		if female {
			c.Title = pick(r, femaleTitles)
		}
		if chance(r, 55) {
			c.Profession = pick(r, professions)
		}
	}

	// Contact details.
	if chance(r, 94) {
		b := append(g.buf[:0], first.lower...)
		b = append(b, '.')
		b = append(b, last.lower...)
		b = strconv.AppendInt(b, int64(i+1), 10) // keeps addresses unique
		b = append(b, '@')
		b = append(b, pick(r, emailDomains)...)
		c.Email = string(b)
		g.buf = b
	}
	sub := pick(r, suburbs)
	if chance(r, 98) {
		n := fictionalMobileBase + r.IntN(10000)
		c.PhoneNumber = string(strconv.AppendInt(append(g.buf[:0], "+61"...), int64(n), 10))
		c.PhoneNumbers = append(make([]practiced.PhoneNumber, 0, 2), practiced.PhoneNumber{
			ID: g.ids.newID(r, practiced.PrefixPhoneNumber, created), Code: "+61", Number: c.PhoneNumber[len("+61"):], Type: "mobile",
		})
	}
	if chance(r, 25) {
		typ := "home"
		if chance(r, 30) {
			typ = "work"
		}
		c.PhoneNumbers = append(c.PhoneNumbers, practiced.PhoneNumber{
			ID: g.ids.newID(r, practiced.PrefixPhoneNumber, created), Code: "+61", Number: landlineNumber(r, sub.areaCode), Type: typ,
		})
	}
	c.Address = practiced.Address{City: sub.name, State: sub.state, PostalCode: sub.postcode, CountryCode: "AU"}
	if chance(r, 96) {
		c.Address.Line1 = streetAddress(r)
		if chance(r, 8) {
			c.Address.Line2 = ptr("Unit " + strconv.Itoa(1+r.IntN(30)))
		}
		if chance(r, 25) { // geocoded when entered through online booking
			lat, lng := sub.lat+(r.Float64()-0.5)/50, sub.lng+(r.Float64()-0.5)/50
			c.Address.Latitude, c.Address.Longitude = &lat, &lng
			c.Address.FormattedAddress = c.Address.Line1 + ", " + sub.name + " " + sub.state + " " + sub.postcode + ", Australia"
		}
	}

	// Consents, recorded for most clients since privacy law requires it;
	// the rest are old records from before the clinic asked.
	switch n := r.IntN(100); {
	case n < 82:
		c.PrivacyPolicyConsent = &accepted
	case n < 85:
		c.PrivacyPolicyConsent = &rejected
	}
	if c.PrivacyPolicyConsent != nil {
		switch n := r.IntN(100); {
		case n < 55:
			c.MarketingConsent = &granted
		case n < 90:
			c.MarketingConsent = &declined
		}
		c.ConsentMethod = pick(r, consentMethods)
	}

	// Health.
	if chance(r, 18) {
		k, at := 1+r.IntN(3), r.IntN(len(medications))
		c.Medications = make([]practiced.Medication, k)
		for j := range c.Medications {
			m := medications[(at+j)%len(medications)]
			c.Medications[j] = practiced.Medication{Name: m.name, Dosage: m.dosage}
		}
	}
	if chance(r, 12) {
		k, at := 1+r.IntN(2), r.IntN(len(allergies))
		c.Allergies = make([]practiced.Allergy, k)
		for j := range c.Allergies {
			a := allergies[(at+j)%len(allergies)]
			c.Allergies[j] = practiced.Allergy{Name: a.name, Reaction: a.reaction}
		}
	}
	if chance(r, 8) {
		c.Intolerances = []string{pick(r, intolerances)}
	}
	if chance(r, 18) {
		c.Notes = pick(r, clientNotes)
	}
	if chance(r, 4) {
		c.Alert = pick(r, clientAlerts)
	}

	// References to other records, each created before this client.
	refs := g.refs
	emergency := 12
	if child {
		emergency = 45
	}
	if id, ok := pickRef(r, refs.emergency, created, emergency); ok {
		c.EmergencyContactID = &id
		c.EmergencyContactRelationship = pick(r, relationships)
		if child {
			c.EmergencyContactRelationship = pick(r, parents)
		}
	}
	if id, ok := pickRef(r, refs.payers, created, 6); ok {
		c.InvoiceContactID = &id
	}
	if chance(r, 45) {
		rt := 0
		switch n := r.IntN(100); {
		case n < 45:
			rt = refGP
		case n < 70:
			rt = refOnline
		case n < 90:
			rt = refFriend
		default:
			rt = refInsurer
		}
		c.ReferralTypeID = &refs.referralTypes[rt]
		if chance(r, 50) {
			c.ReferralDescription = pick(r, referralDescriptions)
		}
		if rt == refFriend && i > 0 && chance(r, 50) {
			c.ReferredByID = ptr(g.id(r.IntN(i)))
		}
	}
	ndis := 4
	if child {
		ndis = 30
	}
	if chance(r, ndis) {
		start := g.now.AddDate(0, 0, -10-r.IntN(320))
		start = time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
		nd := &practiced.NDISDetails{
			NDISNumber:    "43" + strconv.Itoa(1000000+r.IntN(9000000)),
			PlanStartDate: practiced.TimePtr(start),
			PlanEndDate:   practiced.TimePtr(start.AddDate(1, 0, 0)),
			Diagnoses:     []string{pick(r, diagnoses)},
		}
		if id, ok := pickRef(r, refs.planManagers, created, 70); ok {
			nd.PlanManagerID = &id
		}
		if child && c.EmergencyContactID != nil && chance(r, 50) {
			nd.PlanNomineeID = c.EmergencyContactID
		}
		c.NDISDetails = nd
	}
	if i > 0 && chance(r, 3) { // family members seen at the clinic
		c.RelatedClients = []practiced.RelatedClient{{RelatedClientID: g.id(i - 1 - r.IntN(min(i, 50)))}}
	}
	if id, ok := pickRef(r, refs.linkable, created, 5); ok {
		c.LinkedContacts = []practiced.LinkedContact{{
			ContactID:                          id,
			IncludeInAppointmentNotifications:  chance(r, 50),
			IncludeInInvoiceNotifications:      chance(r, 30),
			IncludeInProgressNoteNotifications: chance(r, 70),
			Note:                               pick(r, linkNotes),
		}}
	}
	switch n := r.IntN(100); {
	case n < 10:
		c.TagIDs = []string{refs.tags[tagPrivateHealth], refs.tags[tagCarePlan]}
	case n < 35:
		c.TagIDs = []string{pick(r, refs.tags)}
	}
	if c.NDISDetails != nil {
		c.TagIDs = append(c.TagIDs, refs.tags[tagNDIS])
	}

	// Most edits come in the weeks after a client joins, as details are
	// filled in around the first visits; a few are recent. Keeping most
	// updated_at values near created_at also keeps a big load's inserts
	// near the end of the updated_at index, which is much faster.
	updated := created
	switch n := r.IntN(100); {
	case n < 30:
		updated = between(r, created, minTime(created.Add(90*days), g.now.Add(-time.Minute)))
	case n < 33:
		updated = between(r, created, g.now.Add(-time.Minute))
	}
	if i == g.archived {
		archived := between(r, updated, g.now.Add(-days))
		c.ArchivedAt = practiced.TimePtr(archived)
		updated = archived
		c.Notes = "Moved overseas; archived at the client's request."
	}
	c.UpdatedAt = practiced.NewTime(updated)
}

// pickRef picks, with the given chance, one of the contacts in list
// created before t. ok is false when it does not, or none was.
func pickRef(r *rand.Rand, list []contactRef, t time.Time, percent int) (id string, ok bool) {
	if !chance(r, percent) {
		return "", false
	}
	n := sort.Search(len(list), func(k int) bool { return !list[k].created.Before(t) })
	if n == 0 {
		return "", false
	}
	return list[r.IntN(n)].id, true
}
