package practiced

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// BookingStore keeps what online booking needs beyond appointments: the
// booking page's location, found without an API key, and a booking made
// on the page, which finds or creates its client in the transaction that
// books.
type BookingStore interface {
	// BookingSite returns the location with the id, whatever its
	// business, and that business's name; the location's BusinessID is
	// set. Archived locations and locations that take no online bookings
	// are returned too: the caller decides. Returns ENOTFOUND if no
	// location has the id.
	BookingSite(ctx context.Context, locationID string) (BookingSite, error)
	// BookOnline makes b in one transaction. First the client: the
	// business's oldest live client whose e-mail is b.Client.Email,
	// ignoring case, or else b.Client, stored as a new client. When that
	// client already attends (not cancelled) a live appointment of
	// b.Appointment's practitioner, location and service starting at its
	// start, nothing is written and the result says Already. Otherwise:
	//
	//   - without b.JoinID, b.Appointment is created with b.Attendee as its
	//     one attendee, after b.Check passes, exactly as CreateAppointment
	//     does (the practitioner's bookings take turns);
	//   - with b.JoinID, b.Attendee joins that appointment of the business,
	//     as UpdateAppointment does, after b.Join passes on the appointment
	//     and its attendees, read locked, and the attendee.
	//
	// The attendee's ClientID, AppointmentID and times are filled in. An
	// error from b.Check or b.Join is returned as it is and nothing is
	// written; a group appointment gone meanwhile is ErrSlotTaken; a
	// client over b.MaxPerDay is ErrTooManyBookings.
	BookOnline(ctx context.Context, businessID string, b OnlineBooking) (BookedOnline, error)
}

// BookingSite is the location a booking page books at, with the name of
// its business, which the page shows.
type BookingSite struct {
	Location     Location
	BusinessName string
}

// OnlineBooking is one booking made on the booking page.
type OnlineBooking struct {
	// Client is the person as they entered themselves, with an id; it is
	// stored only when the business has no live client with its e-mail.
	Client Client
	// Appointment is the appointment booked (ids set). When JoinID is set
	// it only says which practitioner, location, service and start the
	// booking is for.
	Appointment Appointment
	// Check vets a new appointment inside the transaction.
	Check ScheduleCheck
	// JoinID names a group appointment to join instead of creating one.
	JoinID string
	// Join vets the group appointment, locked, its attendees and the
	// attendee about to join (its ClientID set).
	Join func(a Appointment, attendees []AppointmentClient, joining AppointmentClient) error
	// Attendee is the client's attendance (its id set).
	Attendee AppointmentClient
	// MaxPerDay, when above 0, is the most attendances at the
	// appointment's location the client may hold that were made since
	// Since (a day before the booking) and are not cancelled: one more
	// is ErrTooManyBookings.
	MaxPerDay int
	Since     Time
}

// BookedOnline is the outcome of BookOnline.
type BookedOnline struct {
	Appointment Appointment
	Attendee    AppointmentClient
	Client      Client
	// NewClient says the client was created by this booking.
	NewClient bool
	// Already says the client was booked there before; nothing was
	// written (a page sent twice, or by two tabs).
	Already bool
}

// ErrSlotTaken refuses a booking page's booking of a time that is no
// longer free: someone else booked it first, or it stopped being
// offered. The page offers other times instead.
var ErrSlotTaken = Errorf(ECONFLICT, "That time is no longer free.")

// ErrTooManyBookings is BookOnline's answer when the e-mail address has
// made as many bookings at the location in 24 hours as it may.
var ErrTooManyBookings = Errorf(ECONFLICT, "This e-mail address has made as many online bookings here today as the clinic takes.")

// ConsentOnlineBooking is the consent_method of a client who gave their
// details on the booking page.
const ConsentOnlineBooking = "online_booking"

// BookingDetails are what a person enters about themselves on the
// booking page.
type BookingDetails struct {
	FirstName string
	LastName  string
	Email     string
	Phone     string // optional
	// Region is the country whose national numbers Phone is read in: the
	// booking location's country (PhoneRegion).
	Region string
}

// Check trims the details, stores the phone number as a client's (in
// E.164, NormalizePhone, read in Region, or DefaultPhoneRegion without
// one) and returns what is wrong with them, by field (first_name,
// last_name, email, phone), in words for the person booking. It returns
// nil when nothing is.
func (d *BookingDetails) Check() map[string]string {
	problems := map[string]string{}
	line := func(field string, v *string, label, missing string) {
		*v = strings.TrimSpace(*v)
		switch n := utf8.RuneCountInString(*v); {
		case n == 0 && missing != "":
			problems[field] = missing
		case n > MaxShortAnswer:
			problems[field] = fmt.Sprintf("Use at most %d characters for your %s (this has %d).", MaxShortAnswer, label, n)
		case strings.ContainsAny(*v, "\r\n\x00"):
			problems[field] = "Use a single line for your " + label + "."
		}
	}
	line("first_name", &d.FirstName, "first name", "Enter your first name.")
	line("last_name", &d.LastName, "last name", "Enter your last name.")
	line("email", &d.Email, "e-mail address", "Enter your e-mail address.")
	line("phone", &d.Phone, "phone number", "")
	if _, bad := problems["email"]; !bad && !ValidEmail(d.Email) {
		problems["email"] = "Enter an e-mail address such as name@example.com."
	}
	if _, bad := problems["phone"]; !bad && d.Phone != "" {
		region := PhoneRegion(d.Region)
		if n, ok := NormalizePhone(d.Phone, region); ok {
			d.Phone = n
		} else {
			problems["phone"] = strings.TrimSuffix(PhoneProblem(region), ".") + ", or leave it empty."
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return problems
}

// NewClient is the client a booking with these (checked) details creates
// when the business has no client with the e-mail address: the details,
// and consent_method online_booking, which records how the clinic got
// them.
func (d BookingDetails) NewClient(id string, now Time) Client {
	method := ConsentOnlineBooking
	return Client{
		ID: id, FirstName: d.FirstName, LastName: d.LastName, Email: d.Email, PhoneNumber: d.Phone,
		ConsentMethod: &method, CreatedAt: now, UpdatedAt: now,
	}
}

// Note is the attendee note of an online booking: what the person
// entered, so that the clinic sees it even when the booking went to an
// existing client whose record says otherwise (the page never changes an
// existing client's record).
func (d BookingDetails) Note() string {
	note := "Booked online by " + d.FirstName + " " + d.LastName + " <" + d.Email + ">"
	if d.Phone != "" {
		note += ", phone " + d.Phone
	}
	return note + "."
}
