package httpapi

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/recur"
	"github.com/practiced/practiced/tid"
)

func busyTimeID(b practiced.BusyTime) string { return b.ID }

// GET /v1/busy_times
func (s *Server) listBusyTimes(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "busy_times", 100)
	f := practiced.BusyTimeFilter{
		ListFilter:     l.q.listFilter(),
		PractitionerID: l.q.id("practitioner_id", practiced.PrefixPractitioner),
		LocationID:     l.q.id("location_id", practiced.PrefixLocation),
		StartsBefore:   l.q.timestamp("starts_before"),
		EndsAfter:      l.q.timestamp("ends_after"),
	}
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListBusyTimes(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info, busyTimeID)
}

// busyTimeInput is the body of POST /v1/busy_times.
type busyTimeInput struct {
	LocationID     opt[string]
	PractitionerID opt[string]
	StartsAt       opt[time.Time]
	EndsAt         opt[time.Time]
	BusyTimeTypeID opt[string]
	Name           opt[string]
	Note           opt[string]
	RoomID         opt[string]
	VehicleID      opt[string]
	ResourceIDs    opt[[]string]
	Repeat         *repeatInput
	SkipConflicts  bool
}

type repeatInput struct {
	rule recur.Rule
}

// readBusyTime reads and checks the body's shape and values; references
// are checked against the store afterwards.
func readBusyTime(o *object) busyTimeInput {
	var in busyTimeInput
	in.LocationID = o.requiredID("location_id", practiced.PrefixLocation)
	in.PractitionerID = o.requiredID("practitioner_id", practiced.PrefixPractitioner)
	in.StartsAt = o.timestamp("starts_at")
	o.required("starts_at", in.StartsAt.Set || o.errs.Has(o.name("starts_at")), in.StartsAt.Null)
	in.EndsAt = o.timestamp("ends_at")
	o.required("ends_at", in.EndsAt.Set || o.errs.Has(o.name("ends_at")), in.EndsAt.Null)
	if in.StartsAt.Set && in.EndsAt.Set && !in.StartsAt.Null && !in.EndsAt.Null && in.EndsAt.V.Sub(in.StartsAt.V) < time.Minute {
		o.fail("ends_at", "must be at least one minute after starts_at")
	}
	in.BusyTimeTypeID = o.id("busy_time_type_id", practiced.PrefixBusyTimeType)
	in.Name = o.str("name", 255)
	in.Note = o.str("note", 2000)
	in.RoomID = o.str("room_id", 255)
	in.VehicleID = o.str("vehicle_id", 255)
	in.ResourceIDs = o.strings("resource_ids", 50, 255)
	if rule, set, _ := o.obj("repeating_rule"); rule != nil {
		in.Repeat, in.SkipConflicts = readRepeatingRule(rule)
	} else if set {
		// null or not an object: an object failure is already reported.
	}
	o.finish()
	return in
}

var frequencies = []string{"daily", "weekly", "monthly"}

func readRepeatingRule(o *object) (*repeatInput, bool) {
	freq := o.enum("frequency", frequencies)
	o.required("frequency", freq.Set || o.errs.Has(o.name("frequency")), freq.Null)
	interval := o.integer("interval", 1, recur.MaxInterval)
	occurrences := o.integer("occurrences", 1, recur.MaxOccurrences)
	o.required("occurrences", occurrences.Set || o.errs.Has(o.name("occurrences")), occurrences.Null)
	skip := o.boolean("skip_conflicts")
	days := o.strings("days", 7, 16)
	var weekdays []time.Weekday
	if days.Set && !days.Null {
		if freq.Set && freq.V != "" && freq.V != "weekly" && len(days.V) > 0 {
			o.fail("days", "is only allowed for a weekly rule")
		}
		for i, d := range days.V {
			wd := slices.Index(practiced.DayNames[:], d)
			if wd < 0 {
				o.errs.Add(o.name("days")+"."+itoa(i), "must be one of: monday, tuesday, wednesday, thursday, friday, saturday, sunday")
				continue
			}
			if slices.Contains(weekdays, time.Weekday(wd)) {
				o.errs.Add(o.name("days")+"."+itoa(i), "repeats a day given earlier")
				continue
			}
			weekdays = append(weekdays, time.Weekday(wd))
		}
	}
	o.finish()
	rule := recur.Rule{Frequency: freq.V, Interval: 1, Days: weekdays, Occurrences: occurrences.V}
	if interval.Set && !interval.Null {
		rule.Interval = interval.V
	}
	return &repeatInput{rule: rule}, skip.V
}

// POST /v1/busy_times
func (s *Server) createBusyTime(w http.ResponseWriter, r *http.Request) error {
	var errs practiced.FieldErrors
	o, err := readBody(w, r, &errs)
	if err != nil {
		return err
	}
	in := readBusyTime(o)
	if err := errs.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	biz := businessID(ctx)

	loc, err := s.store.GetLocation(ctx, biz, in.LocationID.V)
	if practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("location_id", "does not exist")
	} else if err != nil {
		return err
	}
	if _, err := s.store.GetPractitioner(ctx, biz, in.PractitionerID.V); practiced.ErrorCode(err) == practiced.ENOTFOUND {
		errs.Add("practitioner_id", "does not exist")
	} else if err != nil {
		return err
	} else if loc.ID != "" && !slices.Contains(loc.PractitionerIDs, in.PractitionerID.V) {
		errs.Add("practitioner_id", "does not work at the location "+loc.ID)
	}
	if in.BusyTimeTypeID.Set && !in.BusyTimeTypeID.Null {
		if err := s.checkRefs(ctx, biz, &errs, ref{"busy_time_type_id", in.BusyTimeTypeID.V}); err != nil {
			return err
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}

	spans := []recur.Occurrence{{Start: in.StartsAt.V, End: in.EndsAt.V}}
	var repeatID *string
	if in.Repeat != nil {
		zone, err := time.LoadLocation(loc.Timezone)
		if err != nil {
			return err
		}
		spans, err = recur.Expand(in.Repeat.rule, in.StartsAt.V, in.EndsAt.V, zone)
		if errors.Is(err, recur.ErrUnexpandable) || errors.Is(err, recur.ErrInvalidRule) {
			reason := strings.TrimPrefix(strings.TrimPrefix(err.Error(), recur.ErrUnexpandable.Error()), recur.ErrInvalidRule.Error())
			return practiced.Invalid("repeating_rule", "cannot be expanded"+reason)
		} else if err != nil {
			return err
		}
		id := tid.New(practiced.PrefixRepeat)
		repeatID = &id
	}
	now := practiced.NewTime(s.now())
	bts := make([]practiced.BusyTime, 0, len(spans))
	for _, sp := range spans {
		bts = append(bts, practiced.BusyTime{
			ID:             tid.New(practiced.PrefixBusyTime),
			LocationID:     in.LocationID.V,
			PractitionerID: in.PractitionerID.V,
			StartsAt:       practiced.NewTime(sp.Start),
			EndsAt:         practiced.NewTime(sp.End),
			Name:           optPtr(in.Name),
			Note:           optPtr(in.Note),
			BusyTimeTypeID: optPtr(in.BusyTimeTypeID),
			RoomID:         optPtr(in.RoomID),
			VehicleID:      optPtr(in.VehicleID),
			ResourceIDs:    in.ResourceIDs.V,
			RepeatID:       repeatID,
			CreatedAt:      now,
			UpdatedAt:      now,
		})
	}
	created, err := s.store.CreateBusyTimes(ctx, biz, bts, in.SkipConflicts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, created[0])
	return nil
}

// optPtr returns the value of a sent, non-null optional, or nil.
func optPtr(v opt[string]) *string {
	if !v.Set || v.Null {
		return nil
	}
	s := v.V
	return &s
}
