package web

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/availability"
	"github.com/practiced/practiced/bookable"
)

// bookingFrame is what every booking page shows around its step: the
// clinic, the location, where the person is in the flow, and what is
// to be fixed.
type bookingFrame struct {
	Business string
	Location string
	Address  string
	Step     string // "Step 2 of 3", or "" outside the three steps
	Heading  string
	Problems []problemLink
}

func (bookingFrame) accent() string { return "" }

// title starts with "Error: " when something is to be fixed, so that a
// screen reader says so first.
func (f bookingFrame) title() string {
	t := f.Heading + " – " + f.Location + " – " + f.Business
	if len(f.Problems) > 0 {
		t = "Error: " + t
	}
	return t
}

func (c *bookingChoice) frame(step int, heading string) bookingFrame {
	f := bookingFrame{Business: c.site.BusinessName, Location: c.site.Location.Name,
		Address: formatAddress(c.site.Location.Address), Heading: heading}
	if step > 0 {
		f.Step = "Step " + strconv.Itoa(step) + " of 3"
	}
	return f
}

// choiceView is one radio of a choice, with an optional hint.
type choiceView struct {
	ID, Name, Value, Label string
	Hint, HintID           string
	Checked                bool
}

// servicesView is step 1: the services to choose among.
type servicesView struct {
	bookingFrame
	Services []choiceView
	Error    string
}

func (c *bookingChoice) servicesView(problems map[string]string) servicesView {
	v := servicesView{bookingFrame: c.frame(1, "Book an appointment"), Error: problems[fieldService]}
	for i, s := range c.services {
		id := "service-" + strconv.Itoa(i+1)
		v.Services = append(v.Services, choiceView{ID: id, Name: fieldService, Value: s.ID, Label: serviceLabel(s),
			Hint: s.Description, HintID: id + "-hint", Checked: s.ID == c.service.ID})
	}
	if v.Error != "" && len(v.Services) > 0 {
		v.Problems = []problemLink{{Href: "#service-1", Label: "Service", Message: v.Error}}
	}
	return v
}

// hiddenField carries a choice made on an earlier step.
type hiddenField struct{ Name, Value string }

// navLink moves to another week: a link, or in a form that keeps the
// person's details, a button naming the week.
type navLink struct {
	Label string
	URL   string
	Week  string
}

// dayLink is one day of the week shown, in the row that moves between
// days: a link, or in a form that keeps the person's details, a button
// (Value) that shows its times. A day without times is neither.
type dayLink struct {
	Weekday string // "Mon"
	Date    string // "2 Mar"
	Count   string // "12", "1", "none"
	Unit    string // "times", "time": hidden on a phone, still read out
	URL     string
	Value   string
	Free    bool // the day has times
	Current bool // its times are shown
}

// dayView is the day whose times are shown.
type dayView struct {
	ID     string
	Legend string
	Slots  []choiceView
}

// timesView is step 2: one day of a week of times. With Details it is
// also the form that books: the page shown after a time was taken,
// keeping what the person entered.
type timesView struct {
	bookingFrame
	Service       string
	ServiceID     string
	ChangeService string
	// Practitioners is the choice of practitioner, a form of its own
	// (not shown with Details).
	Practitioners     []choiceView
	PractitionerError string
	Hidden            []hiddenField
	Range             string
	Zone              string
	Days              []dayLink
	Day               *dayView // nil when the week has no times
	SlotError         string
	Taken             bool
	// Nav moves to the week before, to the next free time when this
	// week has none, and to the week after.
	Nav     []navLink
	Details []questionView
}

func (c *bookingChoice) timesView(slots []bookable.Slot, to availability.Date, next *bookable.Slot, opt timesOptions) timesView {
	heading := "Choose a time"
	if c.practitioner != nil {
		heading = "Choose a time with " + practitionerName(*c.practitioner)
	}
	v := timesView{
		bookingFrame:  c.frame(2, heading),
		Service:       serviceLabel(c.service),
		ServiceID:     c.service.ID,
		ChangeService: pageURL(fieldService, ""),
		Range:         formatDate(c.from, "Monday 2 January") + " to " + formatDate(to, "Monday 2 January 2006"),
		Zone:          "Times are in " + c.site.Location.Name + " time (" + c.site.Location.Timezone + ").",
		Taken:         opt.taken,
		SlotError:     opt.problems[fieldSlot],
	}
	if opt.taken {
		v.Heading = "Choose another time"
	}
	// With any practitioner, each time is offered once, with the first
	// practitioner free then (slots come sorted by start, then
	// practitioner id); booking goes on to the next one free then if
	// that one is taken meanwhile.
	byDay := map[availability.Date][]bookable.Slot{}
	for i, sl := range slots {
		if c.practitioner == nil && i > 0 && slots[i-1].Start.Equal(sl.Start) {
			continue
		}
		d := bookable.DateOf(sl.Start.In(c.zone))
		byDay[d] = append(byDay[d], sl)
	}
	shown := c.day
	if len(byDay[shown]) == 0 {
		shown = availability.Date{}
		for d := c.from; !to.Before(d); d = d.AddDays(1) {
			if len(byDay[d]) > 0 {
				shown = d
				break
			}
		}
	}
	for d := c.from; !to.Before(d); d = d.AddDays(1) {
		n := len(byDay[d])
		link := dayLink{Weekday: formatDate(d, "Mon"), Date: formatDate(d, "2 Jan"), Count: "none", Value: d.String(),
			// The fragment scrolls a phone past the practitioners to the
			// day's times.
			URL: pageURL(fieldService, c.service.ID, fieldPractitioner, c.practitionerValue(), fieldFrom, c.from.String(),
				fieldDay, d.String()) + "#times-title",
			Free: n > 0, Current: n > 0 && d == shown}
		switch {
		case n == 1:
			link.Count, link.Unit = "1", "time"
		case n > 1:
			link.Count, link.Unit = strconv.Itoa(n), "times"
		}
		v.Days = append(v.Days, link)
	}
	if len(byDay[shown]) > 0 {
		v.Day = &dayView{ID: "day-" + shown.String(), Legend: formatDate(shown, "Monday 2 January 2006")}
		for i, sl := range byDay[shown] {
			v.Day.Slots = append(v.Day.Slots, choiceView{ID: "slot-" + strconv.Itoa(i+1), Name: fieldSlot, Value: slotValue(sl),
				Label: clock(sl.Start.In(c.zone))})
		}
	}
	v.Hidden = []hiddenField{{fieldService, c.service.ID}, {fieldPractitioner, c.practitionerValue()},
		{fieldFrom, c.from.String()}}
	if v.Day != nil {
		v.Hidden = append(v.Hidden, hiddenField{fieldDay, shown.String()})
	}
	if v.SlotError != "" && v.Day != nil {
		v.Problems = append(v.Problems, problemLink{Href: "#slot-1", Label: "Time", Message: v.SlotError})
	}
	week := func(label string, d availability.Date) {
		v.Nav = append(v.Nav, navLink{Label: label, Week: d.String(), URL: pageURL(fieldService, c.service.ID,
			fieldPractitioner, c.practitionerValue(), fieldFrom, d.String())})
	}
	if c.today.Before(c.from) {
		earlier := c.from.AddDays(-weekDays)
		if earlier.Before(c.today) {
			earlier = c.today
		}
		week("Earlier times", earlier)
	}
	if next != nil {
		local := next.Start.In(c.zone)
		week("Next free time: "+local.Format("Monday 2 January 2006"), bookable.DateOf(local))
	}
	if to.Before(c.last) {
		week("Next week", to.AddDays(1))
	}
	if opt.details != nil {
		v.Details = detailFields(*opt.details, opt.problems)
		v.Problems = append(v.Problems, detailProblems(v.Details)...)
		return v
	}
	for i, p := range append([]*practiced.Practitioner{nil}, pointers(c.practitioners)...) {
		choice := choiceView{ID: "practitioner-" + strconv.Itoa(i), Name: fieldPractitioner, Value: anyPractitioner, Label: "Any practitioner",
			Checked: c.practitioner == nil}
		if p != nil {
			choice.Value, choice.Label, choice.Checked = p.ID, practitionerName(*p), c.practitioner != nil && c.practitioner.ID == p.ID
			if p.Designation != "" {
				choice.Hint, choice.HintID = p.Designation, choice.ID+"-hint"
			}
		}
		v.Practitioners = append(v.Practitioners, choice)
	}
	if msg := opt.problems[fieldPractitioner]; msg != "" {
		v.PractitionerError = msg
		v.Problems = append([]problemLink{{Href: "#practitioner-0", Label: "Practitioner", Message: msg}}, v.Problems...)
	}
	return v
}

func pointers[T any](s []T) []*T {
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

func (c *bookingChoice) practitionerValue() string {
	if c.practitioner == nil {
		return anyPractitioner
	}
	return c.practitioner.ID
}

// summaryRow is one line of what is being booked.
type summaryRow struct{ Label, Text string }

// detailsView is step 3: the chosen time and the person's details.
type detailsView struct {
	bookingFrame
	Summary    []summaryRow
	ChangeTime string
	Hidden     []hiddenField
	Fields     []questionView
}

func (c *bookingChoice) detailsView(sl bookable.Slot, pra practiced.Practitioner, d practiced.BookingDetails, problems map[string]string) detailsView {
	day := bookable.DateOf(sl.Start.In(c.zone))
	v := detailsView{
		bookingFrame: c.frame(3, "Your details"),
		Summary:      c.summary(sl.Start, pra),
		ChangeTime: pageURL(fieldService, c.service.ID, fieldPractitioner, c.practitionerValue(),
			fieldFrom, c.from.String(), fieldDay, day.String()),
		Hidden: []hiddenField{{fieldService, c.service.ID}, {fieldPractitioner, c.practitionerValue()},
			{fieldFrom, c.from.String()}, {fieldDay, day.String()}, {fieldSlot, slotValue(sl)}},
		Fields: detailFields(d, problems),
	}
	v.Problems = detailProblems(v.Fields)
	return v
}

// summary describes a booking: what, with whom, when and where.
func (c *bookingChoice) summary(start time.Time, pra practiced.Practitioner) []summaryRow {
	local := start.In(c.zone)
	where := c.site.Location.Name
	if a := formatAddress(c.site.Location.Address); a != "" {
		where += ", " + a
	}
	return []summaryRow{
		{"Service", serviceLabel(c.service)},
		{"With", practitionerName(pra)},
		{"When", local.Format("Monday 2 January 2006") + " at " + clock(local) + " " + local.Format("MST") +
			" (" + c.site.Location.Timezone + ")"},
		{"Where", where},
	}
}

// detailFields are the inputs of the person's details, with the values
// entered and what is wrong with them.
func detailFields(d practiced.BookingDetails, problems map[string]string) []questionView {
	field := func(name, label, inputType, autocomplete, value, hint string, required bool) questionView {
		id := strings.ReplaceAll(name, "_", "-")
		return questionView{Kind: "text", InputType: inputType, InputID: id, Name: name, Label: label, Required: required,
			Hint: hint, HintID: id + "-hint", Error: problems[name], ErrorID: id + "-error", Value: value, Autocomplete: autocomplete}
	}
	return []questionView{
		field("first_name", "First name", "text", "given-name", d.FirstName, "", true),
		field("last_name", "Last name", "text", "family-name", d.LastName, "", true),
		field("email", "E-mail address", "email", "email", d.Email,
			"The clinic finds your record by it, or makes you one.", true),
		field("phone", "Phone number", "tel", "tel", d.Phone, "Optional, in case the clinic needs to call you.", false),
	}
}

func detailProblems(fields []questionView) []problemLink {
	var out []problemLink
	for _, f := range fields {
		if f.Error != "" {
			out = append(out, problemLink{Href: "#" + f.InputID, Label: f.Label, Message: f.Error})
		}
	}
	return out
}

// bookedView is the confirmation.
type bookedView struct {
	bookingFrame
	Already bool
	Summary []summaryRow
	Contact string
}

func (c *bookingChoice) doneView(b practiced.BookedOnline, pra practiced.Practitioner, d practiced.BookingDetails) bookedView {
	v := bookedView{bookingFrame: c.frame(0, "Booking confirmed"), Already: b.Already,
		Summary: c.summary(b.Appointment.StartsAt.Time, pra)}
	v.Summary = append(v.Summary, summaryRow{"Name", d.FirstName + " " + d.LastName}, summaryRow{"E-mail address", d.Email})
	v.Contact = c.contact()
	return v
}

// contact says whom to ask to change or cancel a booking: the
// location, by its phone (written as people in its country write it) and
// e-mail address, or the business when the location has neither.
func (c *bookingChoice) contact() string {
	loc := c.site.Location
	phone := practiced.PhoneForPeople(loc.Phone, practiced.PhoneRegion(loc.Address.CountryCode))
	const lead = "To change or cancel this booking, "
	switch {
	case loc.Phone != "" && loc.Email != "":
		return lead + "call " + loc.Name + " on " + phone + " or e-mail " + loc.Email + "."
	case loc.Phone != "":
		return lead + "call " + loc.Name + " on " + phone + "."
	case loc.Email != "":
		return lead + "e-mail " + loc.Name + " at " + loc.Email + "."
	}
	return lead + "contact " + c.site.BusinessName + "."
}

// bookContact says whom to ask for another booking, as contact does for
// a change.
func (c *bookingChoice) bookContact() string {
	return strings.Replace(c.contact(), "To change or cancel this booking, ", "To book another appointment, ", 1)
}

// bookingProblem is a page that says what went wrong.
type bookingProblem struct {
	Title     string
	Message   string
	Reference string // the request id, to quote to the clinic
	site      practiced.BookingSite
}

func (bookingProblem) accent() string { return "" }

func (v bookingProblem) title() string { return v.Title }

// Business is the clinic's name when the page knows it.
func (v bookingProblem) Business() string { return v.site.BusinessName }

func practitionerName(p practiced.Practitioner) string {
	if p.DisplayName != "" {
		return p.DisplayName
	}
	return strings.Join(strings.Fields(p.Title+" "+p.FirstName+" "+p.LastName), " ")
}

// serviceLabel names a service with its length: "Consultation,
// 30 minutes".
func serviceLabel(s practiced.Service) string {
	return s.Name + ", " + minutes(s.Duration)
}

func minutes(n int) string {
	switch {
	case n%60 == 0 && n >= 60:
		if n == 60 {
			return "1 hour"
		}
		return strconv.Itoa(n/60) + " hours"
	case n > 60:
		return fmt.Sprintf("%d h %d min", n/60, n%60)
	}
	return strconv.Itoa(n) + " minutes"
}

// clock writes a local time as people read it: "9:30 am".
func clock(t time.Time) string {
	return strings.ToLower(t.Format("3:04 PM"))
}

func formatDate(d availability.Date, layout string) string {
	return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Format(layout)
}

func formatAddress(a practiced.Address) string {
	var parts []string
	for _, s := range []string{a.Line1, deref(a.Line2), strings.Join(strings.Fields(a.City+" "+a.State+" "+a.PostalCode), " ")} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
