package demo

import (
	"encoding/json"
	"math/rand/v2"
	"time"

	practiced "github.com/practiced/practiced"
)

// Answers are stored as the JSON a hosted form would save for each
// question type: a string for text, single choices, dates ("YYYY-MM-DD")
// and signatures (the typed name), a list of strings for multiple choices
// and a boolean for yes/no questions.

// answerer is what an answer is drawn from: the client filling the form
// in, and when they did.
type answerer struct {
	r  *rand.Rand
	c  *practiced.Client
	at time.Time
}

// question is a template question with how a client would answer it;
// answer returns nil for a question the client leaves blank.
type question struct {
	practiced.Question
	answer func(a *answerer) any
}

type section struct {
	title, description string
	questions          []question
}

type templateSpec struct {
	name, color, completion string
	prefill, override       bool
	pages                   [][]section
}

// template is a form template record with the spec it was made from, which
// knows how to answer it.
type template struct {
	practiced.FormTemplate
	spec *templateSpec
}

func q(id, typ, label string, required bool, answer func(*answerer) any) question {
	return question{practiced.Question{ID: id, Type: typ, Label: label, Required: required, Options: []string{}}, answer}
}

func choice(id, typ, label string, required bool, options []string, answer func(*answerer) any) question {
	qu := q(id, typ, label, required, answer)
	qu.Options = options
	if answer == nil {
		qu.answer = oneOf(options)
		if typ == "multiple_choice" {
			qu.answer = someOf(options)
		}
	}
	return qu
}

// to maps the question to a client field, which completion can write the
// answer to.
func (qu question) to(field string) question {
	qu.ClientField = &field
	return qu
}

func oneOf(options []string) func(*answerer) any {
	return func(a *answerer) any { return pick(a.r, options) }
}

// someOf picks one to three of the options, keeping their order.
func someOf(options []string) func(*answerer) any {
	return func(a *answerer) any {
		k := 1 + a.r.IntN(min(3, len(options)))
		at := a.r.IntN(len(options) - k + 1)
		return options[at : at+k]
	}
}

func yesNo(percent int) func(*answerer) any {
	return func(a *answerer) any { return chance(a.r, percent) }
}

func text(list ...string) func(*answerer) any { return oneOf(list) }

// field answers with a client detail, or leaves the question blank when
// the client has none on file.
func field(get func(c *practiced.Client) string) func(*answerer) any {
	return func(a *answerer) any {
		if v := get(a.c); v != "" {
			return v
		}
		return nil
	}
}

var (
	ansFirstName = field(func(c *practiced.Client) string { return c.FirstName })
	ansLastName  = field(func(c *practiced.Client) string { return c.LastName })
	ansEmail     = field(func(c *practiced.Client) string { return c.Email })
	ansPhone     = field(func(c *practiced.Client) string { return c.PhoneNumber })
	ansLine1     = field(func(c *practiced.Client) string { return c.Address.Line1 })
	ansCity      = field(func(c *practiced.Client) string { return c.Address.City })
	ansPreferred = field(func(c *practiced.Client) string { return c.PreferredName })
	ansBirth     = field(func(c *practiced.Client) string {
		if c.DateOfBirth == nil {
			return ""
		}
		return *c.DateOfBirth
	})
	ansSignature = field(func(c *practiced.Client) string { return c.FirstName + " " + c.LastName })
	ansToday     = func(a *answerer) any { return a.at.Format(time.DateOnly) }
)

var (
	relationshipOptions = []string{"Partner", "Parent", "Child", "Sibling", "Friend", "Other"}
	feelingOptions      = []string{"None of the time", "A little of the time", "Some of the time", "Most of the time", "All of the time"}
	painOptions         = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
)

// templateSpecs are the clinic's intake forms. Between them they use every
// question type.
var templateSpecs = []*templateSpec{
	{
		name: "New Client Registration", color: "steelblue", prefill: true, override: true,
		completion: "Thank you! Your details are saved. Please arrive five minutes early for your first appointment.",
		pages: [][]section{{
			{"Your details", "We use these details to contact you about your appointments.", []question{
				q("first_name", "short_text", "First name", true, ansFirstName).to("first_name"),
				q("last_name", "short_text", "Last name", true, ansLastName).to("last_name"),
				q("preferred_name", "short_text", "Preferred name", false, ansPreferred),
				q("date_of_birth", "date", "Date of birth", true, ansBirth).to("date_of_birth"),
				q("email", "short_text", "Email", true, ansEmail).to("email"),
				q("mobile", "short_text", "Mobile number", true, ansPhone).to("phone_number"),
				q("street", "short_text", "Street address", false, ansLine1).to("address.line1"),
				q("suburb", "short_text", "Suburb", false, ansCity),
			}},
			{"Emergency contact", "Someone we can call if you become unwell during an appointment.", []question{
				q("emergency_name", "short_text", "Name", false, func(a *answerer) any {
					first, last := personName(a.r, chance(a.r, 50))
					return first.text + " " + last.text
				}),
				choice("emergency_relationship", "single_choice", "Relationship to you", false, relationshipOptions, nil),
				q("emergency_phone", "short_text", "Phone number", false, func(a *answerer) any { return "0" + mobile(a.r) }),
			}},
		}, {
			{"About your visit", "", []question{
				choice("referral_source", "single_choice", "How did you hear about us?", false,
					[]string{"My GP or specialist", "Online search", "Friend or family", "Insurer or case manager", "Other"}, nil),
				q("has_referral", "yes_no", "Do you have a referral or care plan from your GP?", false, yesNo(40)),
				choice("funding", "single_choice", "How will your sessions be paid for?", true,
					[]string{"Self-funded", "Private health insurance", "Medicare care plan", "NDIS", "WorkCover or CTP", "DVA"}, nil),
			}},
			{"Privacy and consent", "Our privacy policy is available at reception and on our website.", []question{
				q("privacy_consent", "yes_no", "I have read and accept the privacy policy.", true, yesNo(100)),
				choice("reminders", "multiple_choice", "How would you like appointment reminders?", false, []string{"SMS", "Email", "Phone call"}, nil),
				q("signature", "signature", "Signature", true, ansSignature),
				q("signed_on", "date", "Date", true, ansToday),
			}},
		}},
	},
	{
		name: "Physiotherapy Health Questionnaire", color: "cadetblue", prefill: true,
		completion: "Thanks, your physiotherapist will go through this with you at your appointment.",
		pages: [][]section{{
			{"Your condition", "", []question{
				q("complaint", "long_text", "What brings you in today?", true, text(
					"Lower back pain since lifting boxes at work last month.",
					"Sore right knee when running, worse on stairs.",
					"Stiff neck and headaches after long days at the computer.",
					"Rolled my ankle playing netball on Saturday.",
					"Shoulder pain when reaching overhead, keeps me awake at night.")),
				choice("areas", "multiple_choice", "Which areas are affected?", true,
					[]string{"Neck", "Upper back", "Lower back", "Shoulder", "Elbow", "Wrist or hand", "Hip", "Knee", "Ankle or foot"}, nil),
				q("onset", "date", "When did it start?", false, func(a *answerer) any {
					return a.at.AddDate(0, 0, -2-a.r.IntN(120)).Format(time.DateOnly)
				}),
				choice("pain", "single_choice", "How would you rate your pain right now, from 0 (no pain) to 10 (worst imaginable)?", true, painOptions,
					func(a *answerer) any { return painOptions[1+a.r.IntN(8)] }),
				q("injury_claim", "yes_no", "Is this related to a workplace or motor vehicle injury?", false, yesNo(15)),
			}},
			{"Medical history", "", []question{
				q("medications", "long_text", "List any medications you take.", false, func(a *answerer) any {
					if len(a.c.Medications) == 0 {
						return "None"
					}
					m := a.c.Medications[0]
					return m.Name + " " + m.Dosage
				}),
				q("surgery", "yes_no", "Have you had surgery in the last 12 months?", false, yesNo(10)),
				choice("conditions", "multiple_choice", "Do you have any of the following?", false,
					[]string{"Diabetes", "Heart condition", "High blood pressure", "Osteoporosis", "Pregnancy", "Cancer (current or past)", "None of these"},
					func(a *answerer) any {
						if chance(a.r, 70) {
							return []string{"None of these"}
						}
						return []string{pick(a.r, []string{"Diabetes", "High blood pressure", "Osteoporosis", "Heart condition"})}
					}),
			}},
		}, {
			{"Your goals", "", []question{
				q("goals", "long_text", "What would you like to get back to doing?", false, text(
					"Run 5 km without pain.", "Pick up my grandchildren.", "Play netball again on Saturdays.",
					"Sleep through the night.", "Garden without my back seizing up.")),
				q("email", "short_text", "Email for your home exercise program", false, ansEmail).to("email"),
			}},
			{"Consent to treatment", "", []question{
				q("treatment_consent", "yes_no", "I consent to assessment and treatment, including hands-on techniques and exercise.", true, yesNo(100)),
				q("signature", "signature", "Signature", true, ansSignature),
			}},
		}},
	},
	{
		name: "Psychology Intake", color: "mediumpurple", prefill: true,
		completion: "Thank you for sharing this. Your psychologist will read it before your first session.",
		pages: [][]section{{
			{"About you", "", []question{
				q("preferred_name", "short_text", "What would you like us to call you?", false, ansPreferred),
				q("date_of_birth", "date", "Date of birth", true, ansBirth).to("date_of_birth"),
				q("phone", "short_text", "Best number to reach you", true, ansPhone).to("phone_number"),
				q("care_plan", "yes_no", "Do you have a Mental Health Care Plan from your GP?", false, yesNo(60)),
				q("concerns", "long_text", "What would you like help with?", true, text(
					"Feeling anxious at work and not sleeping well.", "Low mood since a relationship ended.",
					"Stress about study and exams.", "Coping after the loss of a parent.")),
			}},
			{"How you have been feeling", "Over the past four weeks. Choose the answer that fits best.", []question{
				choice("tired", "single_choice", "How often did you feel tired out for no good reason?", true, feelingOptions, nil),
				choice("nervous", "single_choice", "How often did you feel nervous?", true, feelingOptions, nil),
				choice("hopeless", "single_choice", "How often did you feel hopeless?", true, feelingOptions, nil),
				choice("restless", "single_choice", "How often did you feel restless or fidgety?", true, feelingOptions, nil),
				choice("effort", "single_choice", "How often did you feel that everything was an effort?", true, feelingOptions, nil),
				choice("sleep", "single_choice", "How often did you have trouble sleeping?", true, feelingOptions, nil),
			}},
		}, {
			{"Confidentiality", "What you tell us stays confidential, except where there is a serious risk to someone's safety or the law requires us to share it.", []question{
				q("limits", "yes_no", "I understand the limits of confidentiality.", true, yesNo(100)),
				q("contact_gp", "yes_no", "May we send a summary to your GP?", false, yesNo(75)),
				q("signature", "signature", "Signature", true, ansSignature),
				q("signed_on", "date", "Date", true, ansToday),
			}},
		}},
	},
}

// Indexes into templateSpecs.
const (
	tplRegistration = iota
	tplPhysio
	tplPsych
)

func (b *builder) buildTemplates(r *rand.Rand) {
	for _, s := range templateSpecs {
		created := between(r, b.now.AddDate(-3, 0, 0), b.now.AddDate(-1, 0, 0))
		t := practiced.FormTemplate{
			ID:                   b.ids.newID(r, practiced.PrefixFormTemplate, created),
			Name:                 s.name,
			Color:                s.color,
			CompletionMessage:    s.completion,
			PrefillClientFields:  s.prefill,
			OverrideClientFields: s.override,
			Content:              s.content(nil, nil),
			CreatedAt:            practiced.NewTime(created),
			UpdatedAt:            practiced.NewTime(between(r, created, b.now.AddDate(0, -1, 0))),
		}
		b.templates = append(b.templates, template{FormTemplate: t, spec: s})
	}
}

// content returns the template's pages, with an answer to each question
// answered says to answer (and none when answered is nil).
func (s *templateSpec) content(a *answerer, answered func(k int, qu *question) bool) []practiced.Page {
	pages := make([]practiced.Page, len(s.pages))
	k := 0
	for pi, secs := range s.pages {
		pages[pi].Sections = make([]practiced.Section, len(secs))
		for si, sec := range secs {
			out := practiced.Section{Title: sec.title, Description: sec.description, Questions: make([]practiced.Question, len(sec.questions))}
			for qi := range sec.questions {
				qu := &sec.questions[qi]
				out.Questions[qi] = qu.Question
				if answered != nil && answered(k, qu) {
					if v := qu.answer(a); v != nil {
						raw, err := json.Marshal(v)
						if err != nil {
							panic("demo: encode answer: " + err.Error())
						}
						out.Questions[qi].Answer = raw
					}
				}
				k++
			}
			pages[pi].Sections[si] = out
		}
	}
	return pages
}

func (s *templateSpec) questionCount() int {
	n := 0
	for _, secs := range s.pages {
		for _, sec := range secs {
			n += len(sec.questions)
		}
	}
	return n
}

// formState is one combination of a form's two states.
type formState struct{ status, sent string }

// formStates are the combinations that can happen: answers come only
// through the hosted page, and opening it marks the form viewed, so a form
// with answers has always been viewed.
var formStates = []formState{
	{practiced.FormNotStarted, practiced.SentNotSent},
	{practiced.FormNotStarted, practiced.SentSent},
	{practiced.FormNotStarted, practiced.SentViewed},
	{practiced.FormInProgress, practiced.SentViewed},
	{practiced.FormCompleted, practiced.SentViewed},
}

// formStateWeights says how common each of formStates is after the first
// of each: most intake forms get completed.
var formStateWeights = []int{3, 6, 2, 3, 12}

const maxForms = 40

// buildForms sends intake forms: most to clients with appointments, tied
// to the appointment and its location, some on their own.
func (b *builder) buildForms(r *rand.Rand) {
	if b.nClients == 0 {
		return
	}
	n := min(maxForms, max(len(formStates), b.nClients/6))
	used := map[int]bool{}
	for k := range n {
		st := b.pickFormState(r, k)
		f := practiced.Form{}
		var created time.Time
		var client, tpl int
		if ai := b.formAttendance(r, st, used); ai >= 0 {
			a := &b.attends[ai]
			bk := &b.bookings[a.booking]
			used[ai] = true
			client = a.client
			f.AppointmentClientID = ptr(a.ID)
			f.LocationID = ptr(bk.LocationID)
			switch b.services[bk.svc].area {
			case areaPsych:
				tpl = tplPsych
			case areaOT:
				tpl = tplRegistration
			default:
				tpl = tplPhysio
				if chance(r, 30) {
					tpl = tplRegistration
				}
			}
			// Sent automatically a little after the booking was made.
			created = minTime(a.CreatedAt.Add(time.Duration(60+r.IntN(1800))*time.Second), b.now.Add(-time.Minute))
		} else {
			client = b.pickFormClient(r)
			if client < 0 {
				continue
			}
			tpl = tplRegistration
			switch x := r.IntN(100); {
			case x < 25:
				tpl = tplPhysio
			case x < 40:
				tpl = tplPsych
			}
			if chance(r, 50) {
				f.LocationID = ptr(pick(r, b.locs).ID)
			}
			created = between(r, maxTime(b.clients.createdAt(client), b.now.AddDate(0, 0, -60)), b.now.Add(-2*time.Hour))
		}
		t := &b.templates[tpl]
		f.ClientID = b.clients.id(client)
		f.FormTemplateID = t.ID
		f.Name, f.Color, f.CompletionMessage = t.Name, t.Color, t.CompletionMessage
		f.PrefillClientFields, f.OverrideClientFields = t.PrefillClientFields, t.OverrideClientFields
		f.Status, f.SentStatus = st.status, st.sent
		f.ID = b.ids.newID(r, practiced.PrefixForm, created)
		f.CreatedAt = practiced.NewTime(created)

		// Each step happens after the one before and not after now.
		when := created
		step := func(lo, hi time.Duration) *practiced.Time {
			when = minTime(between(r, when.Add(lo), when.Add(hi)), b.last)
			return practiced.TimePtr(when)
		}
		if st.sent != practiced.SentNotSent {
			f.SentAt = step(0, 15*time.Minute)
		}
		if st.sent == practiced.SentViewed {
			f.ViewedAt = step(10*time.Minute, 3*days)
		}
		var answered func(int, *question) bool
		switch st.status {
		case practiced.FormInProgress:
			step(time.Minute, 30*time.Minute)
			upTo := 1 + r.IntN(t.spec.questionCount()/2)
			answered = func(k int, _ *question) bool { return k < upTo }
		case practiced.FormCompleted:
			f.CompletedAt = step(4*time.Minute, 45*time.Minute)
			answered = func(_ int, qu *question) bool { return qu.Required || chance(r, 75) }
		}
		var c practiced.Client
		b.clients.fill(client, &c)
		f.Content = t.spec.content(&answerer{r: r, c: &c, at: when}, answered)
		f.UpdatedAt = practiced.NewTime(when)
		b.forms = append(b.forms, f)
	}
}

// pickFormState returns the state of the k-th form: each state once, then
// by weight.
func (b *builder) pickFormState(r *rand.Rand, k int) formState {
	if k < len(formStates) {
		return formStates[k]
	}
	total := 0
	for _, w := range formStateWeights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range formStateWeights {
		if n -= w; n < 0 {
			return formStates[i]
		}
	}
	return formStates[0]
}

// formAttendance picks an unused attendance a form in state st could be
// tied to, or returns -1 for a form on its own. Completed forms go with
// appointments the client came to; forms not yet done with ones to come.
func (b *builder) formAttendance(r *rand.Rand, st formState, used map[int]bool) int {
	if !chance(r, 70) {
		return -1
	}
	var cands []int
	for i := range b.attends {
		a := &b.attends[i]
		if used[i] {
			continue
		}
		past := a.Status == practiced.StatusCompleted || a.Status == practiced.StatusArrived
		if st.status == practiced.FormCompleted && past && a.CreatedAt.Before(b.now.AddDate(0, 0, -4)) ||
			st.status != practiced.FormCompleted && a.Status == practiced.StatusBooked {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return -1
	}
	return cands[r.IntN(len(cands))]
}

// pickFormClient picks a live client created at least two days ago, or
// returns -1 if there is none.
func (b *builder) pickFormClient(r *rand.Rand) int {
	m := b.clients.countBefore(b.now.AddDate(0, 0, -2))
	for range 10 {
		if m == 0 {
			break
		}
		if ci := r.IntN(m); ci != b.clients.archived {
			return ci
		}
	}
	return -1
}
