package httpapi_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/tid"
)

type multiSlot struct {
	Time, Date, UTC, Practitioner string
}

func multiSlotsOf(t *testing.T, r response) []multiSlot {
	t.Helper()
	var out []multiSlot
	for _, d := range r.JSON(t)["data"].([]any) {
		m := d.(map[string]any)
		s := multiSlot{Time: m["start_time_local"].(string), Date: m["start_date_local"].(string), UTC: m["start_datetime_utc"].(string)}
		if p, ok := m["practitioner_id"]; ok {
			s.Practitioner = p.(string)
		}
		out = append(out, s)
	}
	return out
}

func TestAvailabilityWithoutPractitionerSearchesEveryoneWhoOffersTheService(t *testing.T) {
	e := newEnv(t)
	a := e.a
	q := url.Values{"location_id": {a.Sydney.ID}, "service_id": {a.Consult.ID}, "from": {"2026-03-03"}, "to": {"2026-03-03"}, "interval": {"240"}}
	r := e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	wantStatus(t, r, 200)
	first, second := a.Alice.ID, a.Bob.ID
	if second < first {
		first, second = second, first
	}
	want := []multiSlot{
		{"09:00", "2026-03-03", "2026-03-02T22:00:00Z", first},
		{"09:00", "2026-03-03", "2026-03-02T22:00:00Z", second},
		{"13:00", "2026-03-03", "2026-03-03T02:00:00Z", first},
		{"13:00", "2026-03-03", "2026-03-03T02:00:00Z", second},
	}
	if got := multiSlotsOf(t, r); !equalMultiSlots(got, want) {
		t.Fatalf("slots\n%v\nwant\n%v", got, want)
	}

	// The group class is offered by Alice only.
	q.Set("service_id", a.Group.ID)
	r = e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	for _, s := range multiSlotsOf(t, r) {
		if s.Practitioner != a.Alice.ID {
			t.Fatalf("slot of %s, who does not offer the group class", s.Practitioner)
		}
	}
}

func TestAvailabilityWithRepeatedPractitionersTagsEachSlot(t *testing.T) {
	e := newEnv(t)
	a := e.a
	q := url.Values{"location_id": {a.Sydney.ID}, "practitioner_id": {a.Bob.ID, a.Alice.ID}, "duration": {"480"}, "from": {"2026-03-04"}, "to": {"2026-03-04"}}
	r := e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	wantStatus(t, r, 200)
	got := multiSlotsOf(t, r)
	if len(got) != 2 || got[0].Practitioner == got[1].Practitioner || got[0].Practitioner > got[1].Practitioner {
		t.Fatalf("slots %v, want one 09:00 slot for each practitioner in id order", got)
	}

	q.Set("practitioner_id", a.Alice.ID)
	q.Add("practitioner_id", a.Alice.ID)
	r = e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	wantStatus(t, r, 422)
	if errs := r.JSON(t)["errors"].(map[string]any); errs["practitioner_id"] == nil {
		t.Fatalf("a repeated practitioner gave %s", r.Body)
	}

	// One practitioner: the slots keep the four fields of the API description.
	q.Del("practitioner_id")
	q.Set("practitioner_id", a.Alice.ID)
	r = e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	for _, s := range multiSlotsOf(t, r) {
		if s.Practitioner != "" {
			t.Fatalf("a single practitioner's slot carries practitioner_id: %s", r.Body)
		}
	}
}

func TestFirstAvailableSkipsAFullyBookedMonth(t *testing.T) {
	e := newEnv(t)
	a := e.a
	// Alice is away for five weeks from Tuesday 3 March (Sydney).
	start := time.Date(2026, 3, 2, 13, 0, 0, 0, time.UTC) // 00:00 on the 3rd in Sydney
	leave := practiced.BusyTime{ID: tid.New("bti"), LocationID: a.Sydney.ID, PractitionerID: a.Alice.ID,
		StartsAt: practiced.NewTime(start), EndsAt: practiced.NewTime(start.Add(35 * 24 * time.Hour)),
		CreatedAt: practiced.NewTime(e.clock), UpdatedAt: practiced.NewTime(e.clock)}
	if err := e.st.Seed(context.Background(), a.Business.ID, practiced.SeedData{BusyTimes: []practiced.BusyTime{leave}}); err != nil {
		t.Fatal(err)
	}
	q := url.Values{"location_id": {a.Sydney.ID}, "service_id": {a.Consult.ID}, "first_available": {"true"}, "from": {"2026-03-03"}}
	r := e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	wantStatus(t, r, 200)
	got := multiSlotsOf(t, r)
	// Bob is free at once; Alice's first slot is the Tuesday after her
	// leave ends (7 April, 09:00 Sydney, after DST has ended: UTC+10).
	want := []multiSlot{
		{"09:00", "2026-03-03", "2026-03-02T22:00:00Z", a.Bob.ID},
		{"09:00", "2026-04-07", "2026-04-06T23:00:00Z", a.Alice.ID},
	}
	if !equalMultiSlots(got, want) {
		t.Fatalf("first available\n%v\nwant\n%v", got, want)
	}

	// A horizon shorter than the leave finds nothing for Alice.
	q.Set("to", "2026-03-31")
	r = e.do("GET", "/v1/availability_slots?"+q.Encode(), a.Token, nil)
	if got := multiSlotsOf(t, r); len(got) != 1 || got[0].Practitioner != a.Bob.ID {
		t.Fatalf("with to=2026-03-31: %v, want Bob's slot only", got)
	}
}

func equalMultiSlots(a, b []multiSlot) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
