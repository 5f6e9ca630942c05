package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/openapi"
)

// handler answers one route; an error it returns is written by
// writeError.
type handler func(http.ResponseWriter, *http.Request) error

// access says what a route asks of its caller.
type access int

const (
	public access = iota // nothing: no API key
	keyed                // a valid API key
	writes               // a read-write API key: the route changes data
)

// route is one endpoint: its method and path as http.ServeMux reads them,
// what it asks of its caller, and its handler.
type route struct {
	pattern string
	access  access
	handle  handler
}

// routes lists every endpoint of the API. Record routes read the id of
// the record from the path value {id}, or {client} for clients (see
// pathID).
func (s *Server) routes() []route {
	return []route{
		{"GET /healthz", public, s.healthz},
		{"GET /v1/openapi.json", public, s.openAPI},
		{"GET /v1/openapi-3.0.json", public, s.openAPI30},

		// Clients, busy times and the change feed.
		{"GET /v1/clients", keyed, s.listClients},
		{"POST /v1/clients", writes, s.clients().createHandler(s)},
		{"GET /v1/clients/{client}", keyed, getOne(practiced.KindClient, s.store.GetClient)},
		{"POST /v1/clients/{client}", writes, s.clients().updateHandler(s)},
		{"POST /v1/clients/{client}/archive", writes, archiveOne(practiced.KindClient, s.store.ArchiveClient, true, s.now)},
		{"POST /v1/clients/{client}/unarchive", writes, archiveOne(practiced.KindClient, s.store.ArchiveClient, false, s.now)},
		{"GET /v1/busy_times", keyed, s.listBusyTimes},
		{"POST /v1/busy_times", writes, s.createBusyTime},
		{"GET /v1/busy_times/{id}", keyed, getOne(practiced.KindBusyTime, s.store.GetBusyTime)},
		{"POST /v1/busy_times/{id}", writes, s.updateBusyTime},
		{"DELETE /v1/busy_times/{id}", writes, s.deleteBusyTime},
		{"POST /v1/busy_times/{id}/archive", writes, archiveOne(practiced.KindBusyTime, s.store.ArchiveBusyTime, true, s.now)},
		{"POST /v1/busy_times/{id}/unarchive", writes, archiveOne(practiced.KindBusyTime, s.store.ArchiveBusyTime, false, s.now)},
		{"GET /v1/webhook_endpoints", keyed, s.listWebhookEndpoints},
		{"POST /v1/webhook_endpoints", writes, s.createWebhookEndpoint},
		{"GET /v1/webhook_endpoints/{id}", keyed, s.getWebhookEndpoint},
		{"POST /v1/webhook_endpoints/{id}", writes, s.updateWebhookEndpoint},
		{"DELETE /v1/webhook_endpoints/{id}", writes, s.deleteWebhookEndpoint},
		{"POST /v1/webhook_endpoints/{id}/rotate_secret", writes, s.rotateWebhookSecret},
		{"GET /v1/webhook_endpoints/{id}/deliveries", keyed, s.listWebhookDeliveries},
		{"POST /v1/webhook_endpoints/{id}/deliveries/{delivery_id}/retry", writes, s.retryWebhookDelivery},
		{"GET /v1/events", keyed, s.listEvents},
		{"GET /v1/events/{id}", keyed, getOne(practiced.KindEvent, s.store.GetEvent)},
		{"GET /v1/availability_slots", keyed, s.listAvailabilitySlots},

		// The clinic's set-up and people.
		{"GET /v1/locations", keyed, s.listLocations},
		{"POST /v1/locations", writes, s.locations().createHandler(s)},
		{"GET /v1/locations/{id}", keyed, getOne(practiced.KindLocation, s.store.GetLocation)},
		{"POST /v1/locations/{id}", writes, s.locations().updateHandler(s)},
		{"POST /v1/locations/{id}/archive", writes, archiveOne(practiced.KindLocation, s.store.ArchiveLocation, true, s.now)},
		{"POST /v1/locations/{id}/unarchive", writes, archiveOne(practiced.KindLocation, s.store.ArchiveLocation, false, s.now)},
		{"GET /v1/contacts", keyed, s.listContacts},
		{"POST /v1/contacts", writes, s.contacts().createHandler(s)},
		{"GET /v1/contacts/{id}", keyed, getOne(practiced.KindContact, s.store.GetContact)},
		{"POST /v1/contacts/{id}", writes, s.contacts().updateHandler(s)},
		{"POST /v1/contacts/{id}/archive", writes, archiveOne(practiced.KindContact, s.store.ArchiveContact, true, s.now)},
		{"POST /v1/contacts/{id}/unarchive", writes, archiveOne(practiced.KindContact, s.store.ArchiveContact, false, s.now)},
		{"GET /v1/practitioners", keyed, s.listPractitioners},
		{"POST /v1/practitioners", writes, s.practitioners().createHandler(s)},
		{"GET /v1/practitioners/{id}", keyed, getOne(practiced.KindPractitioner, s.store.GetPractitioner)},
		{"POST /v1/practitioners/{id}", writes, s.practitioners().updateHandler(s)},
		{"POST /v1/practitioners/{id}/archive", writes, archiveOne(practiced.KindPractitioner, s.store.ArchivePractitioner, true, s.now)},
		{"POST /v1/practitioners/{id}/unarchive", writes, archiveOne(practiced.KindPractitioner, s.store.ArchivePractitioner, false, s.now)},
		{"POST /v1/practitioners/{id}/calendar_feed/rotate", writes, s.rotateCalendarFeed},
		{"GET /v1/services", keyed, s.listServices},
		{"POST /v1/services", writes, s.services().createHandler(s)},
		{"GET /v1/services/{id}", keyed, getOne(practiced.KindService, s.store.GetService)},
		{"POST /v1/services/{id}", writes, s.services().updateHandler(s)},
		{"POST /v1/services/{id}/archive", writes, archiveOne(practiced.KindService, s.store.ArchiveService, true, s.now)},
		{"POST /v1/services/{id}/unarchive", writes, archiveOne(practiced.KindService, s.store.ArchiveService, false, s.now)},
		{"GET /v1/tags", keyed, s.listNamed(practiced.KindTag)},
		{"POST /v1/tags", writes, s.named(practiced.KindTag).createHandler(s)},
		{"GET /v1/tags/{id}", keyed, getOne(practiced.KindTag, s.store.GetNamed)},
		{"POST /v1/tags/{id}", writes, s.named(practiced.KindTag).updateHandler(s)},
		{"POST /v1/tags/{id}/archive", writes, archiveOne(practiced.KindTag, s.store.ArchiveNamed, true, s.now)},
		{"POST /v1/tags/{id}/unarchive", writes, archiveOne(practiced.KindTag, s.store.ArchiveNamed, false, s.now)},
		{"GET /v1/referral_types", keyed, s.listNamed(practiced.KindReferralType)},
		{"POST /v1/referral_types", writes, s.named(practiced.KindReferralType).createHandler(s)},
		{"GET /v1/referral_types/{id}", keyed, getOne(practiced.KindReferralType, s.store.GetNamed)},
		{"POST /v1/referral_types/{id}", writes, s.named(practiced.KindReferralType).updateHandler(s)},
		{"POST /v1/referral_types/{id}/archive", writes, archiveOne(practiced.KindReferralType, s.store.ArchiveNamed, true, s.now)},
		{"POST /v1/referral_types/{id}/unarchive", writes, archiveOne(practiced.KindReferralType, s.store.ArchiveNamed, false, s.now)},
		{"GET /v1/cancellation_reasons", keyed, s.listNamed(practiced.KindCancellationReason)},
		{"POST /v1/cancellation_reasons", writes, s.named(practiced.KindCancellationReason).createHandler(s)},
		{"GET /v1/cancellation_reasons/{id}", keyed, getOne(practiced.KindCancellationReason, s.store.GetNamed)},
		{"POST /v1/cancellation_reasons/{id}", writes, s.named(practiced.KindCancellationReason).updateHandler(s)},
		{"POST /v1/cancellation_reasons/{id}/archive", writes, archiveOne(practiced.KindCancellationReason, s.store.ArchiveNamed, true, s.now)},
		{"POST /v1/cancellation_reasons/{id}/unarchive", writes, archiveOne(practiced.KindCancellationReason, s.store.ArchiveNamed, false, s.now)},
		{"GET /v1/busy_time_types", keyed, s.listNamed(practiced.KindBusyTimeType)},
		{"POST /v1/busy_time_types", writes, s.named(practiced.KindBusyTimeType).createHandler(s)},
		{"GET /v1/busy_time_types/{id}", keyed, getOne(practiced.KindBusyTimeType, s.store.GetNamed)},
		{"POST /v1/busy_time_types/{id}", writes, s.named(practiced.KindBusyTimeType).updateHandler(s)},
		{"POST /v1/busy_time_types/{id}/archive", writes, archiveOne(practiced.KindBusyTimeType, s.store.ArchiveNamed, true, s.now)},
		{"POST /v1/busy_time_types/{id}/unarchive", writes, archiveOne(practiced.KindBusyTimeType, s.store.ArchiveNamed, false, s.now)},
		{"GET /v1/cases", keyed, s.listCases},
		{"POST /v1/cases", writes, s.cases().createHandler(s)},
		{"GET /v1/cases/{id}", keyed, getOne(practiced.KindCase, s.store.GetCase)},
		{"POST /v1/cases/{id}", writes, s.cases().updateHandler(s)},
		{"POST /v1/cases/{id}/archive", writes, archiveOne(practiced.KindCase, s.store.ArchiveCase, true, s.now)},
		{"POST /v1/cases/{id}/unarchive", writes, archiveOne(practiced.KindCase, s.store.ArchiveCase, false, s.now)},
		{"GET /v1/client_packages", keyed, s.listClientPackages},
		{"POST /v1/client_packages", writes, s.clientPackages().createHandler(s)},
		{"GET /v1/client_packages/{id}", keyed, getOne(practiced.KindClientPackage, s.store.GetClientPackage)},
		{"POST /v1/client_packages/{id}", writes, s.clientPackages().updateHandler(s)},
		{"POST /v1/client_packages/{id}/archive", writes, archiveOne(practiced.KindClientPackage, s.store.ArchiveClientPackage, true, s.now)},
		{"POST /v1/client_packages/{id}/unarchive", writes, archiveOne(practiced.KindClientPackage, s.store.ArchiveClientPackage, false, s.now)},

		// Appointments.
		{"GET /v1/appointments", keyed, s.listAppointments},
		{"POST /v1/appointments", writes, notifying(s.createAppointment)},
		{"GET /v1/appointments/{id}", keyed, getOne(practiced.KindAppointment, s.store.GetAppointment)},
		{"POST /v1/appointments/{id}", writes, notifying(s.updateAppointment)},
		{"POST /v1/appointments/{id}/cancel", writes, notifying(s.cancelAppointment)},
		{"POST /v1/appointments/{id}/archive", writes, archiveOne(practiced.KindAppointment, s.store.ArchiveAppointment, true, s.now)},
		{"POST /v1/appointments/{id}/unarchive", writes, archiveOne(practiced.KindAppointment, s.store.ArchiveAppointment, false, s.now)},
		{"GET /v1/appointment_clients", keyed, s.listAppointmentClients},
		{"POST /v1/appointment_clients", writes, notifying(s.createAppointmentClient)},
		{"GET /v1/appointment_clients/{id}", keyed, getOne(practiced.KindAppointmentClient, s.store.GetAppointmentClient)},
		{"POST /v1/appointment_clients/{id}", writes, notifying(s.updateAppointmentClient)},
		{"POST /v1/appointment_clients/{id}/archive", writes, archiveOne(practiced.KindAppointmentClient, s.store.ArchiveAppointmentClient, true, s.now)},
		{"POST /v1/appointment_clients/{id}/unarchive", writes, archiveOne(practiced.KindAppointmentClient, s.store.ArchiveAppointmentClient, false, s.now)},

		// Forms. A form's record carries its hosted page's URL, so its
		// handlers are its own.
		{"GET /v1/form_templates", keyed, s.listFormTemplates},
		{"POST /v1/form_templates", writes, s.formTemplates().createHandler(s)},
		{"GET /v1/form_templates/{id}", keyed, getOne(practiced.KindFormTemplate, s.store.GetFormTemplate)},
		{"POST /v1/form_templates/{id}", writes, s.formTemplates().updateHandler(s)},
		{"POST /v1/form_templates/{id}/archive", writes, archiveOne(practiced.KindFormTemplate, s.store.ArchiveFormTemplate, true, s.now)},
		{"POST /v1/form_templates/{id}/unarchive", writes, archiveOne(practiced.KindFormTemplate, s.store.ArchiveFormTemplate, false, s.now)},
		{"GET /v1/forms", keyed, s.listForms},
		{"POST /v1/forms", writes, s.createForm},
		{"GET /v1/forms/{id}", keyed, s.getForm},
		{"POST /v1/forms/{id}/send", writes, s.sendForm},
		{"POST /v1/forms/{id}/archive", writes, s.archiveForm(true)},
		{"POST /v1/forms/{id}/unarchive", writes, s.archiveForm(false)},

		// Messages to clients.
		{"GET /v1/messages", keyed, s.listMessages},
		{"GET /v1/messages/{id}", keyed, s.getMessage},
	}
}

// handle registers the routes, each behind what its access asks, and the
// pages served beside the API, which ask for nothing.
func (s *Server) handle(routes []route, pages map[string]http.Handler) {
	for _, rt := range routes {
		s.mux.Handle(rt.pattern, s.guard(rt.access, rt.handle))
	}
	for pattern, h := range pages {
		s.mux.Handle(pattern, h)
	}
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// openAPI serves the API's OpenAPI document; it needs no key.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Write(openapi.Document)
	return nil
}

// openAPI30 serves the same document rendered as OpenAPI 3.0.3, for tools
// that do not read 3.1; it needs no key.
func (s *Server) openAPI30(w http.ResponseWriter, r *http.Request) error {
	w.Write(openapi.Document30)
	return nil
}
