package httpapi

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/recur"
	"github.com/practiced/practiced/tid"
)

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
	data, info, err := s.store.ListBusyTimeDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
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
				o.errs.Add(o.name("days")+"."+strconv.Itoa(i), "must be one of: monday, tuesday, wednesday, thursday, friday, saturday, sunday")
				continue
			}
			if slices.Contains(weekdays, time.Weekday(wd)) {
				o.errs.Add(o.name("days")+"."+strconv.Itoa(i), "repeats a day given earlier")
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

	place, err := s.store.BusyTimePlace(ctx, biz, in.LocationID.V, in.PractitionerID.V)
	if err != nil {
		return err
	}
	if !place.LocationFound {
		errs.Add("location_id", "does not exist")
	}
	if !place.PractitionerFound {
		errs.Add("practitioner_id", "does not exist")
	} else if place.LocationFound && !place.WorksThere {
		errs.Add("practitioner_id", "does not work at the location "+in.LocationID.V)
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
		zone, err := time.LoadLocation(place.Timezone)
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

// Scopes of a change to an occurrence of a repeating busy time.
var busyTimeScopes = []string{"this", "following"}

// busyTimePatch is a checked body of POST /v1/busy_times/{id}: the
// changes to set on the busy time (and, with scope following, on the
// later occurrences of its series), with the times apart, since later
// occurrences move by the change of the first rather than take its times.
type busyTimePatch struct {
	following                  bool
	startsAt, endsAt           opt[time.Time]
	locationID, practitionerID opt[string]
	busyTimeTypeID             opt[string]
	fields                     patch[practiced.BusyTime] // every change but the times
}

// readBusyTimePatch reads the update body. The fields a busy time cannot
// be without (times, location, practitioner) cannot be null; the others
// are cleared by null.
func readBusyTimePatch(o *object) *busyTimePatch {
	p := &busyTimePatch{}
	scope := o.enum("scope", busyTimeScopes)
	p.following = scope.V == "following"
	p.startsAt = o.timestamp("starts_at")
	p.endsAt = o.timestamp("ends_at")
	p.locationID = o.id("location_id", practiced.PrefixLocation)
	p.practitionerID = o.id("practitioner_id", practiced.PrefixPractitioner)
	for _, f := range []struct {
		field string
		null  bool
	}{{"scope", scope.Null}, {"starts_at", p.startsAt.Null}, {"ends_at", p.endsAt.Null},
		{"location_id", p.locationID.Null}, {"practitioner_id", p.practitionerID.Null}} {
		if f.null {
			o.fail(f.field, "cannot be null")
		}
	}
	if p.startsAt.Set && p.endsAt.Set && !p.startsAt.Null && !p.endsAt.Null && p.endsAt.V.Sub(p.startsAt.V) < time.Minute {
		o.fail("ends_at", "must be at least one minute after starts_at")
	}
	p.busyTimeTypeID = o.id("busy_time_type_id", practiced.PrefixBusyTimeType)
	f := &p.fields
	setText(f, p.locationID, func(b *practiced.BusyTime) *string { return &b.LocationID })
	setText(f, p.practitionerID, func(b *practiced.BusyTime) *string { return &b.PractitionerID })
	setOptional(f, p.busyTimeTypeID, func(b *practiced.BusyTime) **string { return &b.BusyTimeTypeID })
	setOptional(f, o.str("name", 255), func(b *practiced.BusyTime) **string { return &b.Name })
	setOptional(f, o.str("note", 2000), func(b *practiced.BusyTime) **string { return &b.Note })
	setOptional(f, o.str("room_id", 255), func(b *practiced.BusyTime) **string { return &b.RoomID })
	setOptional(f, o.str("vehicle_id", 255), func(b *practiced.BusyTime) **string { return &b.VehicleID })
	if v := o.strings("resource_ids", 50, 255); v.Set {
		f.change(func(b *practiced.BusyTime) {
			b.ResourceIDs = v.V
			if b.ResourceIDs == nil {
				b.ResourceIDs = []string{}
			}
		})
	}
	o.finish()
	return p
}

// movesTimes reports whether the patch sets the start or the end.
func (p *busyTimePatch) movesTimes() bool { return p.startsAt.Set || p.endsAt.Set }

// setTimes sets the times the patch carries, as sent.
func (p *busyTimePatch) setTimes(b *practiced.BusyTime) {
	if p.startsAt.Set {
		b.StartsAt = practiced.NewTime(p.startsAt.V)
	}
	if p.endsAt.Set {
		b.EndsAt = practiced.NewTime(p.endsAt.V)
	}
}

// locationCache reads locations once per request, for their time zones and
// practitioners.
type locationCache struct {
	s    *Server
	ctx  context.Context
	biz  string
	seen map[string]practiced.Location
}

func (l *locationCache) get(id string) (practiced.Location, error) {
	if loc, ok := l.seen[id]; ok {
		return loc, nil
	}
	loc, err := l.s.store.GetLocation(l.ctx, l.biz, id)
	if err != nil {
		return loc, err
	}
	l.seen[id] = loc
	return loc, nil
}

func (l *locationCache) zone(id string) (*time.Location, error) {
	loc, err := l.get(id)
	if err != nil {
		return nil, err
	}
	return time.LoadLocation(loc.Timezone)
}

// POST /v1/busy_times/{id}: a partial update. With scope following, the
// fields sent are set on every later occurrence of the series too, and a
// change of the times moves each later occurrence by the same wall-clock
// amounts in its location's time zone (practiced.WallShift).
func (s *Server) updateBusyTime(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	req, err := readRecordRequest(w, r, practiced.KindBusyTime, s.store.GetBusyTime)
	if err != nil {
		return err
	}
	q := newQuery(r.URL, &req.errs)
	q.finish() // scope travels in the body; a query scope must not be ignored
	p := readBusyTimePatch(req.body)
	// The change below reads locations (zones, practitioners) outside its
	// transaction: it never writes them, and they are read once here.
	locs := &locationCache{s: s, ctx: ctx, biz: req.biz, seen: map[string]practiced.Location{}}
	if p.locationID.Set && !req.errs.Has("location_id") {
		if _, err := locs.get(p.locationID.V); practiced.ErrorCode(err) == practiced.ENOTFOUND {
			req.errs.Add("location_id", "does not exist")
		} else if err != nil {
			return err
		}
	}
	if p.practitionerID.Set && !req.errs.Has("practitioner_id") {
		if _, err := s.store.GetPractitioner(ctx, req.biz, p.practitionerID.V); practiced.ErrorCode(err) == practiced.ENOTFOUND {
			req.errs.Add("practitioner_id", "does not exist")
		} else if err != nil {
			return err
		}
	}
	if p.busyTimeTypeID.Set && !p.busyTimeTypeID.Null {
		if err := s.checkRefs(ctx, req.biz, &req.errs, ref{"busy_time_type_id", p.busyTimeTypeID.V}); err != nil {
			return err
		}
	}
	if err := req.errs.Err(); err != nil {
		return err
	}

	now := practiced.NewTime(s.now())
	var shift practiced.WallShift
	changed, err := s.store.UpdateBusyTimes(ctx, req.biz, req.id, p.following, func(first practiced.BusyTime, b *practiced.BusyTime) error {
		p.fields.apply(b)
		zone := func() (*time.Location, error) { return locs.zone(b.LocationID) }
		switch {
		case b.ID == first.ID:
			p.setTimes(b)
			if p.following && p.movesTimes() {
				z, err := zone()
				if err != nil {
					return err
				}
				shift = practiced.NewWallShift(first.StartsAt.Time, first.EndsAt.Time, b.StartsAt.Time, b.EndsAt.Time, z)
			}
		case shift != practiced.WallShift{}:
			z, err := zone()
			if err != nil {
				return err
			}
			start, end := shift.Apply(b.StartsAt.Time, b.EndsAt.Time, z)
			b.StartsAt, b.EndsAt = practiced.NewTime(start), practiced.NewTime(end)
		}
		if err := checkBusyTimeSpan(first, *b); err != nil {
			return err
		}
		if p.locationID.Set || p.practitionerID.Set {
			if err := checkWorksAt(locs, p, *b); err != nil {
				return err
			}
		}
		b.UpdatedAt = now
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, changed[0])
	return nil
}

// checkBusyTimeSpan refuses a busy time, as a change leaves it, that ends
// less than a minute after it starts. For a later occurrence moved with
// first, the message names the occurrence.
func checkBusyTimeSpan(first, b practiced.BusyTime) error {
	if b.EndsAt.Sub(b.StartsAt.Time) >= time.Minute {
		return nil
	}
	if b.ID == first.ID {
		return practiced.Invalid("ends_at", "must be at least one minute after starts_at ("+b.StartsAt.String()+")")
	}
	return practiced.Invalid("ends_at", "would end less than a minute after it starts on the later occurrence "+b.ID+
		" ("+b.StartsAt.String()+" to "+b.EndsAt.String()+")")
}

// checkWorksAt refuses a busy time whose practitioner, as a change leaves
// it, does not work at its location. The failure is reported on the field
// the change sent, the practitioner's when it sent both.
func checkWorksAt(locs *locationCache, p *busyTimePatch, b practiced.BusyTime) error {
	loc, err := locs.get(b.LocationID)
	if err != nil {
		return err
	}
	if slices.Contains(loc.PractitionerIDs, b.PractitionerID) {
		return nil
	}
	if p.practitionerID.Set {
		return practiced.Invalid("practitioner_id", "does not work at the location "+b.LocationID)
	}
	return practiced.Invalid("location_id", "is not a location where the practitioner "+b.PractitionerID+" works")
}

// DELETE /v1/busy_times/{id}?scope=this|following: deletes the busy time
// and, with following, the later occurrences of its series. The answer
// is the busy time as it was.
func (s *Server) deleteBusyTime(w http.ResponseWriter, r *http.Request) error {
	req, err := readRecordRequest(w, r, practiced.KindBusyTime, s.store.GetBusyTime)
	if err != nil {
		return err
	}
	q := newQuery(r.URL, &req.errs)
	scope := q.enum("scope", busyTimeScopes)
	q.finish()
	// No body field is known: a scope sent in a body must not be ignored.
	if err := req.noFields(); err != nil {
		return err
	}
	deleted, err := s.store.DeleteBusyTimes(r.Context(), req.biz, req.id, scope == "following")
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, deleted[0])
	return nil
}
