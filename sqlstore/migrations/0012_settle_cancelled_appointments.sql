-- An appointment is cancelled when every one of its attendees is, and
-- queries now read that from its cancelled_at alone, which every write
-- keeps set exactly when the appointment is cancelled. Appointments
-- stored before that get it here, as practiced.SettleAppointment would
-- give it: the last cancellation time of their attendees, or their own
-- updated_at when no attendee has one.
UPDATE appointments SET cancelled_at = COALESCE(
        (SELECT MAX(x.cancelled_at) FROM appointment_clients x
            WHERE x.business_id = appointments.business_id AND x.appointment_id = appointments.id),
        updated_at)
    WHERE cancelled_at IS NULL
    AND EXISTS (SELECT 1 FROM appointment_clients x
        WHERE x.business_id = appointments.business_id AND x.appointment_id = appointments.id)
    AND NOT EXISTS (SELECT 1 FROM appointment_clients x
        WHERE x.business_id = appointments.business_id AND x.appointment_id = appointments.id AND x.status <> 'cancelled');
