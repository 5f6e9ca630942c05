package practiced

// BookingStore keeps what online booking needs beyond appointments.
type BookingStore interface {
}
