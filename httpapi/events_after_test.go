package httpapi_test

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/practiced/practiced/tid"
)

// GET /v1/events?after=: resuming the feed after an event.

func TestEventListAfterResumesAfterTheEventWithTheOtherFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	client, busy1, busy2 := feedFixture(t, e)
	all := e.feed(t, nil)
	every := entries(all)
	for _, tc := range []struct {
		name  string
		query url.Values
		want  []feedEntry
	}{
		{"after the first", qv("after", all[0]["id"].(string)), every[1:]},
		{"after the last", qv("after", all[len(all)-1]["id"].(string)), []feedEntry{}},
		{"after, with a type", qv("after", all[1]["id"].(string), "type", "busy_time.created"),
			[]feedEntry{{"busy_time.created", busy1}, {"busy_time.created", busy2}}},
		{"after, with a record id", qv("after", all[0]["id"].(string), "record_id", client),
			[]feedEntry{{"client.updated", client}, {"client.archived", client}}},
		{"after, with since", qv("after", all[2]["id"].(string), "since", all[0]["created_at"].(string)), every[3:]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := entries(e.feed(t, tc.query)); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%v\nwant %v", got, tc.want)
			}
		})
	}
	t.Run("the next link continues after the page's last event", func(t *testing.T) {
		var got []feedEntry
		next := "/v1/events?limit=2&after=" + all[0]["id"].(string)
		for pages := 0; next != ""; pages++ {
			p := e.do("GET", next, e.a.Token, nil).page(t)
			got = append(got, entries(p.Data)...)
			if (pages == 0) != (p.Links.Prev == nil) {
				t.Fatalf("page %d: prev %v", pages, p.Links.Prev)
			}
			next = ""
			if p.Links.Next != nil {
				next = *p.Links.Next
			}
		}
		if !reflect.DeepEqual(got, every[1:]) {
			t.Fatalf("walked %v\nwant %v", got, every[1:])
		}
	})
}

func TestEventListRefusesAnAfterOfNoEventOfTheBusiness(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wantStatus(t, e.do("POST", "/v1/clients/"+e.b.Clients[0].ID, e.b.Token, map[string]any{"notes": "b"}), http.StatusOK)
	theirs := e.listAll(t, "/v1/events", e.b.Token)[0]["id"].(string)
	malformed := "must be an event id such as evt_01h455vb4pex5vsknk084sn02q"
	runInvalidQueryCases(t, e, "/v1/events", []invalidQueryCase{
		{"after=" + theirs, "after", "does not exist"},
		{"after=" + tid.New("evt"), "after", "does not exist"},
		{"after=" + e.a.Clients[0].ID, "after", malformed},
		{"after=evt_123", "after", malformed},
		{"after=" + theirs + "&after=" + theirs, "after", "must be given once"},
		{"type=appointment.book", "type", `"appointment.book" is not an event type: an event type is <record_type>.<action>, such as client.updated, ` +
			"with an action among created, updated, archived, unarchived, deleted, booked, rescheduled, cancelled"},
	})
	for _, typ := range []string{"appointment.booked", "appointment.rescheduled", "appointment.cancelled", "appointment_client.arrived",
		"appointment_client.no_show", "appointment_client.cancelled", "form.sent", "form.viewed", "form.completed"} {
		wantStatus(t, e.do("GET", "/v1/events?type="+typ, e.a.Token, nil), http.StatusOK)
	}
}
