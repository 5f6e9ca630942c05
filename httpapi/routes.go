package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/openapi"
	"github.com/practiced/practiced/web"
)

// routes registers every endpoint. Handlers wrapped in s.auth need an API
// key; s.write marks those that change data (refused to read-only keys).
func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /v1/openapi.json", s.openAPI)

	// Clients, busy times and the change feed.
	s.mux.Handle("GET /v1/clients", s.auth(s.listClients))
	s.mux.Handle("POST /v1/clients", s.write(s.createClient))
	s.mux.Handle("GET /v1/clients/{client}", s.auth(clientRoute(getOne(practiced.PrefixClient, "Client", s.store.GetClient, nil))))
	s.mux.Handle("POST /v1/clients/{client}", s.write(s.updateClient))
	s.mux.Handle("POST /v1/clients/{client}/archive", s.write(clientRoute(s.archiveOne(practiced.PrefixClient, "Client", anyArchiver(s.store.ArchiveClient), true))))
	s.mux.Handle("POST /v1/clients/{client}/unarchive", s.write(clientRoute(s.archiveOne(practiced.PrefixClient, "Client", anyArchiver(s.store.ArchiveClient), false))))
	s.mux.Handle("GET /v1/busy_times", s.auth(s.listBusyTimes))
	s.mux.Handle("POST /v1/busy_times", s.write(s.createBusyTime))
	s.mux.Handle("GET /v1/busy_times/{id}", s.auth(getOne(practiced.PrefixBusyTime, "Busy time", s.store.GetBusyTime, nil)))
	s.mux.Handle("POST /v1/busy_times/{id}", s.write(s.updateBusyTime))
	s.mux.Handle("DELETE /v1/busy_times/{id}", s.write(s.deleteBusyTime))
	s.mux.Handle("POST /v1/busy_times/{id}/archive", s.write(s.archiveOne(practiced.PrefixBusyTime, "Busy time", anyArchiver(s.store.ArchiveBusyTime), true)))
	s.mux.Handle("POST /v1/busy_times/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixBusyTime, "Busy time", anyArchiver(s.store.ArchiveBusyTime), false)))
	s.mux.Handle("GET /v1/events", s.auth(s.listEvents))
	s.mux.Handle("GET /v1/events/{id}", s.auth(getOne(practiced.PrefixEvent, "Event", s.store.GetEvent, nil)))
	s.mux.Handle("GET /v1/availability_slots", s.auth(s.listAvailabilitySlots))
	// end of clients, busy times and the change feed

	// The clinic's set-up and people.
	s.mux.Handle("GET /v1/locations", s.auth(s.listLocations))
	s.mux.Handle("POST /v1/locations", s.write(s.locations().createHandler(s)))
	s.mux.Handle("GET /v1/locations/{id}", s.auth(getOne(practiced.PrefixLocation, "Location", s.store.GetLocation, nil)))
	s.mux.Handle("POST /v1/locations/{id}", s.write(s.locations().updateHandler(s)))
	s.mux.Handle("POST /v1/locations/{id}/archive", s.write(s.archiveOne(practiced.PrefixLocation, "Location", anyArchiver(s.store.ArchiveLocation), true)))
	s.mux.Handle("POST /v1/locations/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixLocation, "Location", anyArchiver(s.store.ArchiveLocation), false)))
	s.mux.Handle("GET /v1/contacts", s.auth(s.listContacts))
	s.mux.Handle("POST /v1/contacts", s.write(s.contacts().createHandler(s)))
	s.mux.Handle("GET /v1/contacts/{id}", s.auth(getOne(practiced.PrefixContact, "Contact", s.store.GetContact, nil)))
	s.mux.Handle("POST /v1/contacts/{id}", s.write(s.contacts().updateHandler(s)))
	s.mux.Handle("POST /v1/contacts/{id}/archive", s.write(s.archiveOne(practiced.PrefixContact, "Contact", anyArchiver(s.store.ArchiveContact), true)))
	s.mux.Handle("POST /v1/contacts/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixContact, "Contact", anyArchiver(s.store.ArchiveContact), false)))
	s.mux.Handle("GET /v1/practitioners", s.auth(s.listPractitioners))
	s.mux.Handle("POST /v1/practitioners", s.write(s.practitioners().createHandler(s)))
	s.mux.Handle("GET /v1/practitioners/{id}", s.auth(getOne(practiced.PrefixPractitioner, "Practitioner", s.store.GetPractitioner, nil)))
	s.mux.Handle("POST /v1/practitioners/{id}", s.write(s.practitioners().updateHandler(s)))
	s.mux.Handle("POST /v1/practitioners/{id}/archive", s.write(s.archiveOne(practiced.PrefixPractitioner, "Practitioner", anyArchiver(s.store.ArchivePractitioner), true)))
	s.mux.Handle("POST /v1/practitioners/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixPractitioner, "Practitioner", anyArchiver(s.store.ArchivePractitioner), false)))
	s.mux.Handle("GET /v1/services", s.auth(s.listServices))
	s.mux.Handle("POST /v1/services", s.write(s.services().createHandler(s)))
	s.mux.Handle("GET /v1/services/{id}", s.auth(getOne(practiced.PrefixService, "Service", s.store.GetService, nil)))
	s.mux.Handle("POST /v1/services/{id}", s.write(s.services().updateHandler(s)))
	s.mux.Handle("POST /v1/services/{id}/archive", s.write(s.archiveOne(practiced.PrefixService, "Service", anyArchiver(s.store.ArchiveService), true)))
	s.mux.Handle("POST /v1/services/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixService, "Service", anyArchiver(s.store.ArchiveService), false)))
	s.mux.Handle("GET /v1/tags", s.auth(s.named(practiced.PrefixTag).list))
	s.mux.Handle("POST /v1/tags", s.write(s.named(practiced.PrefixTag).create))
	s.mux.Handle("GET /v1/tags/{id}", s.auth(s.named(practiced.PrefixTag).get))
	s.mux.Handle("POST /v1/tags/{id}", s.write(s.named(practiced.PrefixTag).update))
	s.mux.Handle("POST /v1/tags/{id}/archive", s.write(s.named(practiced.PrefixTag).archive))
	s.mux.Handle("POST /v1/tags/{id}/unarchive", s.write(s.named(practiced.PrefixTag).unarchive))
	s.mux.Handle("GET /v1/referral_types", s.auth(s.named(practiced.PrefixReferralType).list))
	s.mux.Handle("POST /v1/referral_types", s.write(s.named(practiced.PrefixReferralType).create))
	s.mux.Handle("GET /v1/referral_types/{id}", s.auth(s.named(practiced.PrefixReferralType).get))
	s.mux.Handle("POST /v1/referral_types/{id}", s.write(s.named(practiced.PrefixReferralType).update))
	s.mux.Handle("POST /v1/referral_types/{id}/archive", s.write(s.named(practiced.PrefixReferralType).archive))
	s.mux.Handle("POST /v1/referral_types/{id}/unarchive", s.write(s.named(practiced.PrefixReferralType).unarchive))
	s.mux.Handle("GET /v1/cancellation_reasons", s.auth(s.named(practiced.PrefixCancellationReason).list))
	s.mux.Handle("POST /v1/cancellation_reasons", s.write(s.named(practiced.PrefixCancellationReason).create))
	s.mux.Handle("GET /v1/cancellation_reasons/{id}", s.auth(s.named(practiced.PrefixCancellationReason).get))
	s.mux.Handle("POST /v1/cancellation_reasons/{id}", s.write(s.named(practiced.PrefixCancellationReason).update))
	s.mux.Handle("POST /v1/cancellation_reasons/{id}/archive", s.write(s.named(practiced.PrefixCancellationReason).archive))
	s.mux.Handle("POST /v1/cancellation_reasons/{id}/unarchive", s.write(s.named(practiced.PrefixCancellationReason).unarchive))
	s.mux.Handle("GET /v1/busy_time_types", s.auth(s.named(practiced.PrefixBusyTimeType).list))
	s.mux.Handle("POST /v1/busy_time_types", s.write(s.named(practiced.PrefixBusyTimeType).create))
	s.mux.Handle("GET /v1/busy_time_types/{id}", s.auth(s.named(practiced.PrefixBusyTimeType).get))
	s.mux.Handle("POST /v1/busy_time_types/{id}", s.write(s.named(practiced.PrefixBusyTimeType).update))
	s.mux.Handle("POST /v1/busy_time_types/{id}/archive", s.write(s.named(practiced.PrefixBusyTimeType).archive))
	s.mux.Handle("POST /v1/busy_time_types/{id}/unarchive", s.write(s.named(practiced.PrefixBusyTimeType).unarchive))
	s.mux.Handle("GET /v1/cases", s.auth(s.listCases))
	s.mux.Handle("POST /v1/cases", s.write(s.cases().createHandler(s)))
	s.mux.Handle("GET /v1/cases/{id}", s.auth(getOne(practiced.PrefixCase, "Case", s.store.GetCase, nil)))
	s.mux.Handle("POST /v1/cases/{id}", s.write(s.cases().updateHandler(s)))
	s.mux.Handle("POST /v1/cases/{id}/archive", s.write(s.archiveOne(practiced.PrefixCase, "Case", anyArchiver(s.store.ArchiveCase), true)))
	s.mux.Handle("POST /v1/cases/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixCase, "Case", anyArchiver(s.store.ArchiveCase), false)))
	s.mux.Handle("GET /v1/client_packages", s.auth(s.listClientPackages))
	s.mux.Handle("POST /v1/client_packages", s.write(s.clientPackages().createHandler(s)))
	s.mux.Handle("GET /v1/client_packages/{id}", s.auth(getOne(practiced.PrefixClientPackage, "Client package", s.store.GetClientPackage, nil)))
	s.mux.Handle("POST /v1/client_packages/{id}", s.write(s.clientPackages().updateHandler(s)))
	s.mux.Handle("POST /v1/client_packages/{id}/archive", s.write(s.archiveOne(practiced.PrefixClientPackage, "Client package", anyArchiver(s.store.ArchiveClientPackage), true)))
	s.mux.Handle("POST /v1/client_packages/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixClientPackage, "Client package", anyArchiver(s.store.ArchiveClientPackage), false)))
	// end of set-up and people

	// Appointments.
	s.mux.Handle("GET /v1/appointments", s.auth(s.listAppointments))
	s.mux.Handle("POST /v1/appointments", s.write(s.createAppointment))
	s.mux.Handle("GET /v1/appointments/{id}", s.auth(getOne(practiced.PrefixAppointment, "Appointment", s.store.GetAppointment, nil)))
	s.mux.Handle("POST /v1/appointments/{id}", s.write(s.updateAppointment))
	s.mux.Handle("POST /v1/appointments/{id}/cancel", s.write(s.cancelAppointment))
	s.mux.Handle("POST /v1/appointments/{id}/archive", s.write(s.archiveOne(practiced.PrefixAppointment, "Appointment", anyArchiver(s.store.ArchiveAppointment), true)))
	s.mux.Handle("POST /v1/appointments/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixAppointment, "Appointment", anyArchiver(s.store.ArchiveAppointment), false)))
	s.mux.Handle("GET /v1/appointment_clients", s.auth(s.listAppointmentClients))
	s.mux.Handle("POST /v1/appointment_clients", s.write(s.createAppointmentClient))
	s.mux.Handle("GET /v1/appointment_clients/{id}", s.auth(getOne(practiced.PrefixAppointmentClient, "Appointment client", s.store.GetAppointmentClient, nil)))
	s.mux.Handle("POST /v1/appointment_clients/{id}", s.write(s.updateAppointmentClient))
	s.mux.Handle("POST /v1/appointment_clients/{id}/archive", s.write(s.archiveOne(practiced.PrefixAppointmentClient, "Appointment client", anyArchiver(s.store.ArchiveAppointmentClient), true)))
	s.mux.Handle("POST /v1/appointment_clients/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixAppointmentClient, "Appointment client", anyArchiver(s.store.ArchiveAppointmentClient), false)))
	// end of appointments

	// Forms.
	s.mux.Handle("GET /v1/form_templates", s.auth(s.listFormTemplates))
	s.mux.Handle("POST /v1/form_templates", s.write(s.createFormTemplate))
	s.mux.Handle("GET /v1/form_templates/{id}", s.auth(getOne(practiced.PrefixFormTemplate, "Form template", s.store.GetFormTemplate, nil)))
	s.mux.Handle("POST /v1/form_templates/{id}", s.write(s.updateFormTemplate))
	s.mux.Handle("POST /v1/form_templates/{id}/archive", s.write(s.archiveOne(practiced.PrefixFormTemplate, "Form template", anyArchiver(s.store.ArchiveFormTemplate), true)))
	s.mux.Handle("POST /v1/form_templates/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixFormTemplate, "Form template", anyArchiver(s.store.ArchiveFormTemplate), false)))
	s.mux.Handle("GET /v1/forms", s.auth(s.listForms))
	s.mux.Handle("POST /v1/forms", s.write(s.createForm))
	s.mux.Handle("GET /v1/forms/{id}", s.auth(getOne(practiced.PrefixForm, "Form", s.store.GetForm, s.finishForm)))
	s.mux.Handle("POST /v1/forms/{id}/send", s.write(s.sendForm))
	s.mux.Handle("POST /v1/forms/{id}/archive", s.write(s.archiveForm(true)))
	s.mux.Handle("POST /v1/forms/{id}/unarchive", s.write(s.archiveForm(false)))
	// The hosted form: HTML for the client, outside /v1 and without a key
	// (the form's id is the credential; see package web).
	hosted := web.NewForms(s.store, web.Options{Logger: s.logger, Now: s.now, PublicURL: s.publicURL,
		IsCountry: func(c string) bool { return countryCodes[c] }})
	s.mux.Handle("GET /f/{form_id}", hosted.Show())
	s.mux.Handle("POST /f/{form_id}", hosted.Answer())
	// end of forms

	// Online booking: HTML for the clinic's clients, outside /v1 and
	// without a key (see package web). It lists and books slots with the
	// functions the API uses (package schedule).
	booking := web.NewBooking(s.store, web.Options{Logger: s.logger, Now: s.now, PublicURL: s.publicURL})
	s.mux.Handle("GET /book/{location_id}", booking.Show())
	s.mux.Handle("POST /book/{location_id}", booking.Book())
	// end of online booking
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// openAPI serves the API's OpenAPI document; it needs no key.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openapi.Document)
}
