package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
)

// location is a location record with its loaded time zone.
type location struct {
	practiced.Location
	zone *time.Location
}

// service is a service record with the discipline it belongs to, which
// decides the cases, packages and forms its clients get.
type service struct {
	practiced.Service
	area   string
	weight int // how often it is booked relative to the others
}

// Disciplines of the services.
const (
	areaPhysio  = "physio"
	areaPilates = "pilates"
	areaPsych   = "psych"
	areaOT      = "ot"
	areaEP      = "ep"
)

// practitioner is a practitioner record with the indexes of their
// locations and services in the builder's lists.
type practitioner struct {
	practiced.Practitioner
	locs []int
	svcs []int
}

// hours builds opening hours open on weekdays from opens to closes, with
// Thursday open late until thuCloses, and closed at the weekend.
func hours(opens, closes, thuCloses string) practiced.OpeningHours {
	var h practiced.OpeningHours
	for wd := time.Monday; wd <= time.Friday; wd++ {
		h.Days[wd] = practiced.DayHours{Active: true, OpensAt: opens, ClosesAt: closes}
	}
	h.Days[time.Thursday].ClosesAt = thuCloses
	return h
}

func (b *builder) buildLocations(r *rand.Rand) error {
	specs := []struct {
		suburb, zone, line1, phone, email, desc string
		opens, closes, thuCloses                string
		online                                  bool
		ndis                                    string
	}{
		{"Surry Hills", "Australia/Sydney", "Suite 3, 214 Crown Street", "(02) 5550 0140", "surryhills@coastlinehealth.example",
			"Our flagship clinic: physiotherapy, clinical Pilates, psychology and exercise physiology, five minutes' walk from Central Station. Street parking is limited; the Foveaux Street car park is closest.",
			"08:00", "18:00", "20:00", true, "4050081234"},
		{"Norwood", "Australia/Adelaide", "Shop 5, 160 The Parade", "(08) 5550 0260", "norwood@coastlinehealth.example",
			"Physiotherapy, psychology and occupational therapy on The Parade. Ground-floor access with an accessible bathroom.",
			"08:00", "17:30", "19:30", false, "4050081235"},
		{"Subiaco", "Australia/Perth", "12 Rokeby Road", "(08) 5550 0380", "subiaco@coastlinehealth.example",
			"Physiotherapy, paediatric occupational therapy and exercise physiology, with an on-site rehab gym. Close to Subiaco Station.",
			"07:30", "17:00", "19:00", false, "4050081236"},
	}
	for i, s := range specs {
		zone, err := time.LoadLocation(s.zone)
		if err != nil {
			return fmt.Errorf("demo: time zone %s: %w", s.zone, err)
		}
		sub := suburbByName(s.suburb)
		created := between(r, b.now.AddDate(-8, 0, 0), b.now.AddDate(-7, 0, 0)).AddDate(i, 0, 0)
		l := practiced.Location{
			ID:                           b.ids.newID(r, practiced.PrefixLocation, created),
			Name:                         BusinessName + " — " + s.suburb,
			Description:                  s.desc,
			Email:                        s.email,
			Phone:                        auPhone(s.phone),
			Timezone:                     s.zone,
			OnlineAppointmentBooking:     s.online,
			OnlineBookingsPerEmailPerDay: practiced.DefaultOnlineBookingsPerEmailPerDay,
			OnlineCancellationHours:      practiced.DefaultOnlineCancellationHours,
			OnlineClassBooking:           s.online,
			TaxIdentifier:                "51 824 753 556",
			TaxIdentifierLabel:           "ABN",
			NDISNumber:                   s.ndis,
			OpeningHours:                 hours(s.opens, s.closes, s.thuCloses),
			Address: practiced.Address{
				Line1: s.line1, City: sub.name, State: sub.state, PostalCode: sub.postcode, CountryCode: "AU",
			},
			CreatedAt: practiced.NewTime(created),
			UpdatedAt: practiced.NewTime(between(r, created, b.now.AddDate(0, -2, 0))),
		}
		b.locs = append(b.locs, location{Location: l, zone: zone})
	}
	return nil
}

func suburbByName(n string) suburb {
	for _, s := range suburbs {
		if s.name == n {
			return s
		}
	}
	panic("demo: unknown suburb " + n)
}

func (b *builder) buildServices(r *rand.Rand) {
	specs := []struct {
		name, desc, area, color        string
		duration, price, before, after int
		maxClients, minNotice, horizon int
		online                         bool
		locs                           []int
		weight                         int
	}{
		{"Physiotherapy Initial Consultation", "A thorough assessment of your injury or condition, a diagnosis and a treatment plan. Please bring any scans or referral letters.",
			areaPhysio, "steelblue", 60, 12500, 0, 0, 1, 120, 60, true, []int{0, 1, 2}, 3},
		{"Physiotherapy Follow-up", "Treatment and progression of your exercise program after your initial consultation.",
			areaPhysio, "cadetblue", 30, 9500, 0, 0, 1, 60, 60, true, []int{0, 1, 2}, 6},
		{"Clinical Pilates Group Class", "Small-group reformer class supervised by a physiotherapist. A one-on-one assessment is needed before your first class.",
			areaPilates, "sandybrown", 60, 4500, 10, 5, 6, 120, 28, true, []int{0, 2}, 2},
		{"Psychology Initial Assessment", "A first session to understand what brings you in and agree on goals. Bring your Mental Health Care Plan if you have one.",
			areaPsych, "mediumpurple", 90, 26000, 0, 15, 1, 1440, 90, false, []int{0, 1}, 1},
		{"Psychology Session", "Ongoing individual therapy session (50 minutes of therapy plus notes).",
			areaPsych, "plum", 60, 23000, 0, 10, 1, 1440, 90, false, []int{0, 1}, 4},
		{"Occupational Therapy Assessment", "Functional assessment at the clinic, with a written report for your NDIS plan or insurer.",
			areaOT, "coral", 90, 29000, 15, 0, 1, 2880, 90, false, []int{1, 2}, 1},
		{"Occupational Therapy Session", "Therapy session working towards your goals: fine motor skills, daily living, sensory regulation or return to work.",
			areaOT, "darksalmon", 60, 19399, 0, 0, 1, 1440, 90, false, []int{1, 2}, 4},
		{"Exercise Physiology Session", "Supervised exercise for chronic conditions such as diabetes, heart disease and osteoarthritis.",
			areaEP, "mediumseagreen", 45, 11000, 0, 5, 1, 120, 60, true, []int{2}, 3},
	}
	for _, s := range specs {
		created := between(r, b.now.AddDate(-7, 0, 0), b.now.AddDate(-2, 0, 0))
		v := practiced.Service{
			ID:                 b.ids.newID(r, practiced.PrefixService, created),
			Name:               s.name,
			Description:        s.desc,
			Duration:           s.duration,
			PriceCents:         s.price,
			BufferBefore:       s.before,
			BufferAfter:        s.after,
			MaxClients:         s.maxClients,
			ReminderMinutes:    practiced.DefaultReminderMinutes,
			MinNotice:          s.minNotice,
			BookingHorizonDays: s.horizon,
			OnlineBooking:      s.online,
			Color:              s.color,
			CreatedAt:          practiced.NewTime(created),
			UpdatedAt:          practiced.NewTime(between(r, created, b.now.AddDate(0, -1, 0))),
		}
		for _, li := range s.locs {
			v.LocationIDs = append(v.LocationIDs, b.locs[li].ID)
		}
		b.services = append(b.services, service{Service: v, area: s.area, weight: s.weight})
	}
}

// wh is a practitioner's working hours at one location: the same ranges on
// each of the given weekdays.
type wh struct {
	loc    int
	days   []time.Weekday
	ranges [][2]string
}

func (b *builder) buildPractitioners(r *rand.Rand) {
	specs := []struct {
		title, first, last, designation, phone string
		locs, svcs                             []int
		hours                                  []wh
	}{
		{"Ms", "Claire", "Donnelly", "Senior Physiotherapist", "(02) 5550 0141", []int{0}, []int{0, 1, 2}, nil},
		{"Mr", "Tom", "Achterberg", "Physiotherapist", "(08) 5550 0381", []int{2}, []int{0, 1, 2}, []wh{
			{2, []time.Weekday{time.Monday, time.Tuesday, time.Friday}, [][2]string{{"07:30", "12:00"}, {"13:00", "17:00"}}},
			{2, []time.Weekday{time.Thursday}, [][2]string{{"07:30", "12:00"}, {"13:00", "19:00"}}},
		}},
		{"Dr", "Nadia", "Rahimi", "Clinical Psychologist", "(02) 5550 0142", []int{0, 1}, []int{3, 4}, []wh{
			{0, []time.Weekday{time.Monday, time.Tuesday, time.Wednesday}, [][2]string{{"09:00", "12:30"}, {"13:30", "18:00"}}},
			{1, []time.Weekday{time.Thursday}, [][2]string{{"10:00", "13:00"}, {"14:00", "19:00"}}},
			{1, []time.Weekday{time.Friday}, [][2]string{{"09:00", "13:00"}}},
		}},
		{"Mr", "Daniel", "Okoro", "Psychologist", "(02) 5550 0143", []int{0}, []int{3, 4}, []wh{
			{0, []time.Weekday{time.Tuesday, time.Wednesday, time.Friday}, [][2]string{{"08:30", "12:30"}, {"13:00", "17:00"}}},
			{0, []time.Weekday{time.Thursday}, [][2]string{{"08:30", "12:30"}, {"13:00", "19:30"}}},
		}},
		{"Ms", "Sophie", "Lindqvist", "Occupational Therapist", "(08) 5550 0261", []int{1}, []int{5, 6}, []wh{
			{1, []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}, [][2]string{{"08:30", "12:30"}, {"13:00", "16:30"}}},
		}},
		{"Ms", "Amara", "Osei", "Paediatric Occupational Therapist", "(08) 5550 0382", []int{2}, []int{5, 6}, nil},
		{"Ms", "Ruby", "Castellano", "Accredited Exercise Physiologist", "(08) 5550 0383", []int{2}, []int{7, 2}, []wh{
			{2, []time.Weekday{time.Monday, time.Wednesday, time.Friday}, [][2]string{{"07:30", "11:30"}, {"12:00", "16:00"}}},
		}},
		{"Mr", "Marcus", "Feeney", "Physiotherapist and Clinical Director", "(02) 5550 0144", []int{0, 1}, []int{0, 1}, []wh{
			{1, []time.Weekday{time.Monday, time.Tuesday}, [][2]string{{"08:00", "12:00"}, {"12:45", "17:30"}}},
			{0, []time.Weekday{time.Wednesday, time.Friday}, [][2]string{{"08:00", "12:30"}, {"13:15", "18:00"}}},
			{0, []time.Weekday{time.Thursday}, [][2]string{{"08:00", "12:30"}, {"13:15", "20:00"}}},
		}},
	}
	for _, s := range specs {
		created := between(r, b.now.AddDate(-6, 0, 0), b.now.AddDate(-1, 0, 0))
		p := practiced.Practitioner{
			ID:           b.ids.newID(r, practiced.PrefixPractitioner, created),
			Title:        s.title,
			FirstName:    s.first,
			LastName:     s.last,
			DisplayName:  s.first + " " + s.last,
			Designation:  s.designation,
			Email:        emailSafe(s.first) + "." + emailSafe(s.last) + "@coastlinehealth.example",
			Phone:        auPhone(s.phone),
			WorkingHours: []practiced.WorkingHours{},
			Exceptions:   []practiced.AvailabilityException{},
			CreatedAt:    practiced.NewTime(created),
			UpdatedAt:    practiced.NewTime(between(r, created, b.now.AddDate(0, 0, -14))),
		}
		if s.title == "Dr" {
			p.DisplayName = "Dr " + p.DisplayName
		}
		for _, li := range s.locs {
			p.LocationIDs = append(p.LocationIDs, b.locs[li].ID)
		}
		for _, si := range s.svcs {
			p.ServiceIDs = append(p.ServiceIDs, b.services[si].ID)
		}
		for _, h := range s.hours {
			for _, d := range h.days {
				for _, rg := range h.ranges {
					p.WorkingHours = append(p.WorkingHours, practiced.WorkingHours{
						LocationID: b.locs[h.loc].ID, Day: practiced.DayNames[d], StartsAt: rg[0], EndsAt: rg[1],
					})
				}
			}
		}
		b.pracs = append(b.pracs, practitioner{Practitioner: p, locs: s.locs, svcs: s.svcs})
	}

	// Two dated exceptions near now: Dr Rahimi away at a conference for a
	// whole day, and Sophie Lindqvist working a morning only. Their dates
	// depend on now so they always fall inside the appointment window.
	rahimi, lindqvist := &b.pracs[2], &b.pracs[4]
	conf := b.workingDay(rahimi, 0, 9)
	rahimi.Exceptions = append(rahimi.Exceptions, practiced.AvailabilityException{
		Date: conf, Ranges: []practiced.TimeRange{},
	})
	half := b.workingDay(lindqvist, 1, -6)
	lindqvist.Exceptions = append(lindqvist.Exceptions, practiced.AvailabilityException{
		Date: half, LocationID: ptr(b.locs[1].ID), Ranges: []practiced.TimeRange{{StartsAt: "08:30", EndsAt: "12:30"}},
	})
	for _, p := range []*practitioner{rahimi, lindqvist} {
		// The exceptions were entered recently, which is the last change.
		p.UpdatedAt = practiced.NewTime(between(r, b.now.AddDate(0, 0, -20), b.now.AddDate(0, 0, -1)))
	}
}

// workingDay returns the date, as "YYYY-MM-DD", of the first day on or
// after now+offset days (searching backwards for a negative offset) on
// which p works at location li.
func (b *builder) workingDay(p *practitioner, li int, offset int) string {
	return b.localDay(li, b.workingDayIndex(p, li, offset)).Format(time.DateOnly)
}

// namedSpec is a name and colour of a small named record.
type namedSpec struct{ name, color string }

func (b *builder) buildNamed(r *rand.Rand) {
	mk := func(prefix string, specs []namedSpec) []practiced.Named {
		out := make([]practiced.Named, len(specs))
		for i, s := range specs {
			created := between(r, b.now.AddDate(-6, 0, 0), b.now.AddDate(-5, 0, 0))
			out[i] = practiced.Named{
				ID: b.ids.newID(r, prefix, created), Name: s.name, Color: s.color,
				CreatedAt: practiced.NewTime(created), UpdatedAt: practiced.NewTime(created),
			}
		}
		return out
	}
	b.tags = mk(practiced.PrefixTag, []namedSpec{
		{"NDIS", "rebeccapurple"}, {"WorkCover", "tomato"}, {"DVA", "teal"},
		{"Private health", "mediumaquamarine"}, {"Care plan (Medicare)", "gold"}, {"Interpreter required", "dimgray"},
	})
	b.referralTypes = mk(practiced.PrefixReferralType, []namedSpec{
		{"GP referral", ""}, {"Online search", ""}, {"Friend or family", ""}, {"Insurer or case manager", ""},
	})
	b.cancellationReasons = mk(practiced.PrefixCancellationReason, []namedSpec{
		{"Unwell", ""}, {"Schedule clash", ""}, {"Transport problems", ""}, {"Rescheduled by the clinic", ""},
	})
	b.busyTimeTypes = mk(practiced.PrefixBusyTimeType, []namedSpec{
		{"Meeting", "lightsteelblue"}, {"Admin", "powderblue"}, {"Leave", "lightcyan"},
	})
}

// Indexes of the tags and referral types the generators refer to by meaning.
const (
	tagNDIS = iota
	tagWorkCover
	tagDVA
	tagPrivateHealth
	tagCarePlan
	tagInterpreter
)

const (
	refGP = iota
	refOnline
	refFriend
	refInsurer
)

const (
	bttMeeting = iota
	bttAdmin
	bttLeave
)

// contactTypeCounts says how many contacts of each type the clinic keeps;
// the total is 60.
var contactTypeCounts = []struct {
	typ string
	n   int
}{
	{"referrer", 16}, {"third_party_payer", 10}, {"plan_manager", 8}, {"emergency", 18}, {"other", 8},
}

var payers = []struct {
	company string
	tag     int
}{
	{"Harbourline Health Fund", tagPrivateHealth},
	{"Meridian Workers Compensation", tagWorkCover},
	{"Coastal Motor Accident Insurance", tagWorkCover},
	{"Veterans' Care Program Office", tagDVA},
	{"Unity Members Health", tagPrivateHealth},
	{"Redgum Insurance (Workers Comp)", tagWorkCover},
	{"Bluewren Health Cover", tagPrivateHealth},
	{"Ironbark Mutual", tagPrivateHealth},
	{"Lakeside Income Protection", -1},
	{"State Injury Scheme Case Management", tagWorkCover},
}

var planManagers = []string{
	"Clearpath Plan Management", "My Plan Partners", "Kookaburra Plan Managers",
	"Evenkeel Plan Management", "Brightside Plan Management", "Tandem Plan Management",
	"Northstar NDIS Plan Managers", "Simply Plan Managed",
}

var referrerProfessions = []struct{ profession, company string }{
	{"General Practitioner", "%s Family Medical Centre"},
	{"General Practitioner", "%s Medical Practice"},
	{"General Practitioner", "%s Health Hub"},
	{"Orthopaedic Surgeon", "%s Orthopaedics"},
	{"Sports Physician", "%s Sports Medicine"},
	{"Psychiatrist", "%s Psychiatry Rooms"},
	{"Paediatrician", "%s Children's Clinic"},
	{"Rheumatologist", "%s Specialist Centre"},
}

var otherContacts = []struct{ profession, company, notes string }{
	{"Support coordinator", "Pathways Support Coordination", "Coordinates NDIS supports for several of our clients."},
	{"Learning support teacher", "%s Primary School", "Best reached after 3:15pm."},
	{"Return-to-work coordinator", "Redgum Logistics", "Send progress reports after each review."},
	{"Case manager", "Harbour Community Mental Health", ""},
	{"Speech pathologist", "%s Speech and Language", "Shares goals with our OT team."},
	{"Personal trainer", "Ironclad Fitness", ""},
	{"Behaviour support practitioner", "Calmwaters Behaviour Support", ""},
	{"School counsellor", "%s High School", "Consent to share information is on file."},
}

func (b *builder) buildContacts(r *rand.Rand) {
	var types []string
	for _, t := range contactTypeCounts {
		for range t.n {
			types = append(types, t.typ)
		}
	}
	r.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })

	// Creation times are drawn first and sorted, so contacts are made, and
	// their ids drawn, in creation order.
	times := make([]time.Time, len(types))
	for i := range times {
		times[i] = between(r, b.now.AddDate(-6, 0, 0), b.now.AddDate(0, 0, -20))
	}
	slices.SortFunc(times, time.Time.Compare)

	seen := map[string]int{}
	for i, typ := range types {
		k := seen[typ]
		seen[typ]++
		b.contacts = append(b.contacts, b.contact(r, typ, k, times[i]))
	}
	// The last "other" contact left its job and was archived.
	for i := len(b.contacts) - 1; i >= 0; i-- {
		if c := &b.contacts[i]; c.Type == "other" {
			at := practiced.NewTime(between(r, c.UpdatedAt.Time, b.now.AddDate(0, 0, -3)))
			c.ArchivedAt, c.UpdatedAt = &at, at
			c.Notes = "No longer in this role; archived."
			break
		}
	}
}

// contact makes the k-th contact of its type, created at created.
func (b *builder) contact(r *rand.Rand, typ string, k int, created time.Time) practiced.Contact {
	c := practiced.Contact{
		ID:        b.ids.newID(r, practiced.PrefixContact, created),
		Type:      typ,
		TagIDs:    []string{},
		CreatedAt: practiced.NewTime(created),
		UpdatedAt: practiced.NewTime(created),
	}
	if chance(r, 30) {
		c.UpdatedAt = practiced.NewTime(between(r, created, b.now.AddDate(0, 0, -1)))
	}
	sub := pick(r, suburbs)
	female := chance(r, 55)
	first, last := personName(r, female)
	work := func() practiced.PhoneNumber {
		return practiced.PhoneNumber{ID: b.ids.newID(r, practiced.PrefixPhoneNumber, created), Code: "+61", Number: auNumber(landline(r, sub.areaCode)), Type: "work"}
	}
	c.Address = practiced.Address{
		Line1: streetAddress(r), City: sub.name, State: sub.state, PostalCode: sub.postcode, CountryCode: "AU",
	}
	switch typ {
	case "referrer":
		p := pick(r, referrerProfessions)
		c.Title = "Dr"
		c.FirstName, c.LastName = first.text, last.text
		c.Profession = p.profession
		c.Company = fmt.Sprintf(p.company, sub.name)
		c.Email = "reception@" + emailSafe(c.Company) + ".example"
		c.PhoneNumbers = []practiced.PhoneNumber{work()}
		if chance(r, 50) {
			fax := work()
			fax.Type = "fax"
			c.PhoneNumbers = append(c.PhoneNumbers, fax)
		}
		c.Notes = pick(r, []string{"", "Prefers reports by secure messaging.", "Sends Chronic Disease Management referrals.", "Please cc the practice manager on letters."})
		if p.profession == "General Practitioner" && chance(r, 60) {
			c.TagIDs = append(c.TagIDs, b.tags[tagCarePlan].ID)
		}
	case "third_party_payer":
		p := payers[k%len(payers)]
		c.Company = p.company
		if chance(r, 60) {
			c.FirstName, c.LastName = first.text, last.text
			c.Profession = pick(r, []string{"Claims officer", "Case manager"})
		}
		c.Email = "claims@" + emailSafe(p.company) + ".example"
		c.Notes = "Quote the claim number on every invoice."
		c.PhoneNumbers = []practiced.PhoneNumber{work()}
		if p.tag >= 0 {
			c.TagIDs = append(c.TagIDs, b.tags[p.tag].ID)
		}
	case "plan_manager":
		c.Company = planManagers[k%len(planManagers)]
		c.FirstName, c.LastName = first.text, last.text
		c.Profession = "Plan manager"
		c.Email = "invoices@" + emailSafe(c.Company) + ".example"
		c.Notes = "Invoices within five business days of service, with NDIS support item numbers."
		c.PhoneNumbers = []practiced.PhoneNumber{work()}
		c.TagIDs = append(c.TagIDs, b.tags[tagNDIS].ID)
	case "emergency":
		c.Title = pick(r, titles(female))
		c.FirstName, c.LastName = first.text, last.text
		if chance(r, 40) {
			c.PreferredName = nicknames[first.text]
		}
		c.Email = first.lower + "." + last.lower + strconv.Itoa(k+1) + "@" + pick(r, emailDomains)
		c.PhoneNumbers = []practiced.PhoneNumber{{
			ID: b.ids.newID(r, practiced.PrefixPhoneNumber, created), Code: "+61", Number: auNumber(mobile(r)), Type: "mobile",
		}}
		if chance(r, 15) {
			c.Address.Line2 = ptr("Unit " + strconv.Itoa(1+r.IntN(40)))
		}
	case "other":
		o := otherContacts[k%len(otherContacts)]
		c.FirstName, c.LastName = first.text, last.text
		c.Title = pick(r, titles(female))
		c.Profession = o.profession
		c.Company = o.company
		if strings.Contains(o.company, "%s") {
			c.Company = fmt.Sprintf(o.company, sub.name)
		}
		c.Email = first.lower + "." + last.lower + "@" + emailSafe(c.Company) + ".example"
		c.Notes = o.notes
		c.PhoneNumbers = []practiced.PhoneNumber{work()}
		if chance(r, 50) {
			c.PhoneNumbers = append(c.PhoneNumbers, practiced.PhoneNumber{
				ID: b.ids.newID(r, practiced.PrefixPhoneNumber, created), Code: "+61", Number: auNumber(mobile(r)), Type: "mobile",
			})
		}
		if o.profession == "Support coordinator" || o.profession == "Behaviour support practitioner" {
			c.TagIDs = append(c.TagIDs, b.tags[tagNDIS].ID)
		}
	}
	return c
}

func titles(female bool) []string {
	if female {
		return []string{"Ms", "Ms", "Mrs", "Miss", ""}
	}
	return []string{"Mr", "Mr", "Mr", ""}
}

func personName(r *rand.Rand, female bool) (first, last name) {
	if female {
		first = pick(r, femaleNames)
	} else {
		first = pick(r, maleNames)
	}
	return first, pick(r, surnames)
}

// streetAddress returns a plausible street line such as "42 Wattle Street".
func streetAddress(r *rand.Rand) string {
	return strconv.Itoa(1+r.IntN(240)) + " " + pick(r, streets) + " " + pick(r, streetTypes)
}

// mobile returns a fictional mobile number in national form without the
// trunk 0, such as "491 573 812".
func mobile(r *rand.Rand) string {
	var buf [11]byte
	return string(appendMobile(buf[:0], fictionalMobileBase+r.IntN(10000)))
}

// auNumber returns the Australian number national, as the demo's tables
// write it, in the shape a PhoneNumber keeps it (practiced.NormalizePhoneNumber).
func auNumber(national string) string {
	_, n, ok := practiced.NormalizePhoneNumber("+61", national, "AU")
	if !ok {
		panic("demo: not an Australian number: " + national)
	}
	return n
}

// auPhone returns the Australian number national in E.164, as phone
// fields keep it.
func auPhone(national string) string {
	n, ok := practiced.NormalizePhone(national, "AU")
	if !ok {
		panic("demo: not an Australian number: " + national)
	}
	return n
}

// appendMobile appends the 9 digits of n grouped 3-3-3.
func appendMobile(dst []byte, n int) []byte {
	var d [9]byte
	for i := 8; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	dst = append(dst, d[0:3]...)
	dst = append(dst, ' ')
	dst = append(dst, d[3:6]...)
	dst = append(dst, ' ')
	return append(dst, d[6:9]...)
}

// landline returns a fictional landline in national form without the
// trunk 0, such as "2 5550 1234".
func landline(r *rand.Rand, area string) string {
	n := r.IntN(10000)
	return area + " " + pick(r, fictionalLandlinePrefixes) + " " + fourDigits(n)
}

// landlineNumber returns the number landline would, in the shape a
// PhoneNumber keeps it: auNumber(landline(r, area)) for the same r, its
// digits, without the cost of the parser (a tenth of a large load's time).
func landlineNumber(r *rand.Rand, area string) string {
	n := r.IntN(10000)
	return area + pick(r, fictionalLandlinePrefixes) + fourDigits(n)
}

func fourDigits(n int) string {
	return string([]byte{byte('0' + n/1000), byte('0' + n/100%10), byte('0' + n/10%10), byte('0' + n%10)})
}
